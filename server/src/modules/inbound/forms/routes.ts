import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isRedirectUrl, type FormTrigger } from '@taskspace/engine';
import { ServiceError } from '../../../errors';
import { escapeHtml, formPage } from '../../../http/public-pages';
import { rateLimitHeaders } from '../../../http/rate-limit-headers';
import { FormRejectedError, inboundBody, InboundThrottledError, receiveInboundCall } from '../inbound';
import { INBOUND_RESPONSES } from '../schemas';
import { renderForm } from './page';
import { formPageState } from './service';
import { FormQuery, formParams } from './schemas';

/** Messages of the pages shown instead of a form. */
const NO_FORM = {
  not_found: { status: 404, title: 'Form not found', text: 'This form does not exist, or its link is incomplete.' },
  closed: { status: 409, title: 'Form closed', text: 'This form is not accepting responses at the moment.' },
  needs_token: { status: 401, title: 'Link incomplete', text: 'This form needs the full link it was shared with (including its token).' },
} as const;

/**
 * Where a browser goes after a submission: the form's `redirectUrl` as a header-safe absolute URL,
 * or undefined when it has none or the stored one is unusable (saved before it was checked this
 * strictly): the thank-you page is shown instead, never a 500.
 */
function redirectOf(form: FormTrigger): string | undefined {
  return form.redirectUrl !== undefined && isRedirectUrl(form.redirectUrl) ? new URL(form.redirectUrl).href : undefined;
}

/** The origins a form's page must allow to post to: its redirect target (browsers apply `form-action` to redirects). */
function formTargets(form: FormTrigger): string[] {
  const target = redirectOf(form);
  return target ? [new URL(target).origin] : [];
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '');
}

/**
 * Hosted forms, `GET /forms/<id>` and `POST /forms/<id>` (docs "Automations", "Form trigger"; the
 * spec's "form submission" trigger). No account: the URL (and, when required, its `token`) is the
 * credential. The page is server-rendered without scripts. A browser's form post gets the
 * thank-you page, a 303 redirect, or the page again with each refused field marked (400); a JSON
 * post gets `{ok, requestId}` (with `filtered: true` when the trigger's `filter` refused it: no
 * run; a browser's post then gets the thank-you page or redirect as usual) or the error envelope (400 with `details.problems`). Posts share the
 * URL's throttle with its webhook calls (`TASKSPACE_INBOUND_RATE_PER_MINUTE`).
 */
export const formRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  const { throttle } = rt;

  const notOpen = (reply: FastifyReply, kind: keyof typeof NO_FORM) => {
    const page = NO_FORM[kind];
    return formPage(reply, page.status, page.title, `<p>${escapeHtml(page.text)}</p>`);
  };

  app.get(
    '/forms/:formId',
    {
      schema: {
        // HTML pages stay out of the OpenAPI document, like the share and consent pages (docs "Automations", "Form trigger").
        hide: true,
        summary: 'The hosted page of a form-triggered automation (HTML)',
        security: [],
        params: formParams,
        querystring: FormQuery,
      },
    },
    async (request, reply) => {
      const { formId } = request.params;
      const state = await svc.store.run(formPageState(svc, formId, request.query.token));
      if (state.kind !== 'open') return notOpen(reply, state.kind);
      return formPage(reply, 200, state.form.title, renderForm(state.form, { id: formId, token: request.query.token }), {
        formTargets: formTargets(state.form),
      });
    },
  );

  app.register(async (plugin) => {
    const posts = plugin.withTypeProvider<TypeBoxTypeProvider>();
    posts.removeAllContentTypeParsers();
    posts.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    posts.post(
      '/forms/:formId',
      {
        config: { rateLimit: 'per-url' },
        schema: {
          hide: true,
          summary: 'Submit a form (a browser form post or JSON)',
          description:
            "Form posts (`application/x-www-form-urlencoded`) get HTML: the thank-you page, a 303 redirect to the form's `redirectUrl`, " +
            "or the form again with each refused field marked (400). JSON posts get `{ok, requestId}` (`filtered: true` when the trigger's " +
            '`filter` refused the submission: no run is started) or the error envelope; a refused ' +
            'submission lists every field in `details.problems`. The token, when required: `Authorization: Bearer`, `?token=` or a `token` form field.',
          security: [],
          params: formParams,
          querystring: FormQuery,
          response: INBOUND_RESPONSES,
        },
      },
      async (request, reply) => {
        const { formId } = request.params;
        // An HTML answer (the JSON ones follow the response schema), with the URL's throttle headers.
        const html = (page: string) => {
          const pageReply: FastifyReply = reply;
          return pageReply.headers(rateLimitHeaders(throttle.state(formId))).send(page);
        };
        const json = isJson(request.headers['content-type']);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        let posted: unknown;
        let token = request.query.token;
        try {
          posted = inboundBody(raw, json ? 'application/json' : 'application/x-www-form-urlencoded', svc.config.jsonMaxDepth);
          if (!json) {
            const fields = posted as Record<string, unknown>;
            if (typeof fields.token === 'string') token = fields.token;
            delete fields.token;
          }
          const accepted = await receiveInboundCall(svc, rt, {
            webhookId: formId,
            authorization: request.headers.authorization ?? (token === undefined ? undefined : `Bearer ${token}`),
            body: raw,
            parsed: posted,
            headers: request.headers,
            entry: 'form',
          });
          // A submission the trigger's filter refuses stores no run and is answered like the webhook's (docs "Trigger filters").
          if (json)
            return accepted.filtered
              ? { ok: true, requestId: accepted.requestId, filtered: true }
              : { ok: true, requestId: accepted.requestId };
          const form = accepted.form!;
          const target = redirectOf(form);
          if (form.redirectUrl && !target)
            request.log.warn("the form's stored redirectUrl is not a usable URL: showing the thank-you page");
          if (target) return reply.redirect(target, 303);
          return html(formPage(reply, 200, form.title, `<p role="status">${escapeHtml(form.thankYou || 'Thank you!')}</p>`));
        } catch (error) {
          if (error instanceof InboundThrottledError) reply.header('Retry-After', Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
          if (json || !(error instanceof ServiceError)) throw error;
          if (error instanceof FormRejectedError) {
            const state = await svc.store.run(formPageState(svc, formId, token));
            if (state.kind === 'open') {
              const page = renderForm(state.form, {
                id: formId,
                token,
                values: posted as Record<string, unknown>,
                problems: error.problems,
              });
              return html(formPage(reply, 400, state.form.title, page, { formTargets: formTargets(state.form) }));
            }
          }
          if (error.statusCode === 404) return html(notOpen(reply, 'not_found'));
          if (error.statusCode === 401) return html(notOpen(reply, 'needs_token'));
          if (error.statusCode === 409) return html(notOpen(reply, 'closed'));
          return html(formPage(reply, error.statusCode, 'Not sent', `<p>${escapeHtml(error.message)}</p>`));
        } finally {
          reply.headers(rateLimitHeaders(throttle.state(formId)));
        }
      },
    );
  });
};
