/**
 * Events sent to waiting runs (docs/automations.md "Waiting for an event"): a run at a
 * `wait.event` step continues when its event comes, through the API (a member with the
 * Participant role or above) or through the run's resume URL (no credentials: the URL is the
 * credential, as an inbound webhook URL is). The payload, any JSON (`{}` for an empty body),
 * becomes the step's output.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { RunStatus } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { badRequest, notFound } from '../../errors';
import type { Services } from '../../services';
import { fromEngineError } from '../../http/engine-errors';
import type { AutomationRuntime } from '../engine-host/runtime';
import { requireAutomation } from '../engine-host/automation-access';
import { validResume } from '../engine-host/resume-url';
import { resumeParams, runEventParams, sentResponses } from './run-schemas';

/** Largest event payload, in bytes. */
export const MAX_EVENT_BYTES = 256 * 1024;

/** A request body (the raw bytes, see rawBodies) as the event's payload: JSON, or `{}` when empty. @throws ServiceError 400. */
function payloadOf(body: unknown): unknown {
  const text = Buffer.isBuffer(body) ? body.toString('utf8').trim() : '';
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('body', 'invalid_json', 'the event payload must be JSON (or empty)');
  }
}

/** What an accepted event answers: the run's id and status after the event. */
interface Sent {
  runId: string;
  status: RunStatus;
}

async function send(rt: AutomationRuntime, runId: string, event: string | undefined, payload: unknown, sentBy: string): Promise<Sent> {
  try {
    const run = await rt.engine.sendEvent(runId, event, payload, sentBy);
    return { runId: run.id, status: run.status };
  } catch (error) {
    throw fromEngineError(error);
  }
}

/**
 * Sends `event` to a run of an automation the actor may reach with the Participant role or above.
 * @throws ServiceError 404 (unknown run, or not visible), 403, 409 (not waiting for that event).
 */
export async function sendEventAsMember(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  runId: string,
  event: string,
  payload: unknown,
): Promise<Sent> {
  const found = await rt.engine.getRun(runId);
  if (!found) throw notFound('run', runId);
  await requireAutomation(svc, rt, actor, found.run.automationId, 'Participant', 'sending an event to a run');
  return send(rt, runId, event, payload, actor.handle);
}

/** Reads any body as raw bytes, so an empty or non-JSON body is the handler's to judge. */
function rawBodies(app: Parameters<FastifyPluginAsync>[0]): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_EVENT_BYTES }, (_request, body, done) => done(null, body));
}

/** `POST /api/v1/runs/{runId}/events/{event}` (API credentials). */
export const runEventRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  rawBodies(plugin);
  app.post(
    '/runs/:runId/events/:event',
    {
      schema: {
        tags: ['automations'],
        // The body is read raw (any JSON, or none): see rawBodies.
        consumes: ['application/json'],
        summary: 'Send an event to a run waiting on a wait.event step (Participant and above)',
        description: "The body (any JSON; empty means `{}`) becomes the step's `payload`. 409 when the run does not wait for this event.",
        params: runEventParams,
        response: sentResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await sendEventAsMember(svc, rt, request.actor, request.params.runId, request.params.event, payloadOf(request.body)),
    }),
  );
};

/** `POST /resume/{runId}/{signature}`: the run's resume URL (`{{ run.resumeUrl }}`), no credentials. */
export const runResumeRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  rawBodies(plugin);
  app.post(
    '/resume/:runId/:signature',
    {
      config: { rateLimit: 'per-url' },
      schema: {
        tags: ['automations'],
        consumes: ['application/json'],
        summary: 'Send a waiting run the event it waits for, through its resume URL',
        description: 'The URL is the credential (from `{{ run.resumeUrl }}`). The body (any JSON; empty means `{}`) becomes the payload.',
        security: [],
        params: resumeParams,
        response: sentResponses,
      },
    },
    async (request) => {
      // An unknown run and a wrong signature answer alike: the URL reveals nothing.
      if (!validResume(svc, request.params.runId, request.params.signature)) throw notFound('run', request.params.runId);
      return { ok: true, item: await send(rt, request.params.runId, undefined, payloadOf(request.body), 'resumeUrl') };
    },
  );
};
