import type { FastifyReply } from 'fastify';
import { FINAL_STATUSES, responseHeaderRefusal, type RunResponse, type RunStatus } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';

/**
 * Respond to webhook (docs "Automations", "Respond to webhook"): an inbound call to an automation
 * with a `respond` step waits for the first such step of its run and gets that response; the call
 * whose run ends without one, or that waits longer than `TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS`,
 * gets the usual `{ok, requestId}`. The response is read from the run's journal, so a retry with
 * the same `Idempotency-Key` (linked to the same run) gets the same response, also after a restart.
 */

/** Where an inbound call's run stands: `done` with the response (or none), or still going. */
type ResponseState = { done: true; response: RunResponse | undefined } | { done: false };

/** The rows {@link responseState} reads: a run's status, a step's output. */
type StatusRow = { status: string };
type OutputRow = { output_json: string | null };

function* responseState(q: Sql, runId: string): Query<ResponseState> {
  const run = yield* q.get<StatusRow>('SELECT status FROM automation_runs WHERE id = ?', [runId]);
  if (run === undefined) return { done: true, response: undefined };
  const step = yield* q.get<OutputRow>(
    "SELECT output_json FROM automation_steps WHERE run_id = ? AND type = 'respond' AND status = 'succeeded' ORDER BY ordinal LIMIT 1",
    [runId],
  );
  if (step?.output_json) return { done: true, response: JSON.parse(step.output_json) as RunResponse };
  return FINAL_STATUSES.has(run.status as RunStatus) ? { done: true, response: undefined } : { done: false };
}

/** Resolves after `ms`, or earlier when a run signals (`runs`) or `abort` fires. */
function nextSignal(svc: Services, ms: number, abort: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off?.();
      abort.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = svc.signals?.on('runs', done);
    abort.addEventListener('abort', done);
  });
}

/**
 * Waits for the response of an accepted inbound call's run (`runId`): the output of its first
 * `respond` step. Resolves to undefined when the run ends without one or is gone, `timeoutMs`
 * passes or `abort` fires (the caller went away).
 */
export async function awaitInboundResponse(
  svc: Services,
  runId: string,
  timeoutMs: number,
  abort: AbortSignal,
): Promise<RunResponse | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await svc.store.run(responseState(svc.store.sql, runId));
    if (state.done) return state.response;
    const left = deadline - Date.now();
    if (left <= 0 || abort.aborted) return undefined;
    await nextSignal(svc, Math.min(left, svc.config.webhooks.pollMs), abort);
  }
}

/**
 * Sends an automation's response. Text bodies go as `text/plain`, other JSON values as JSON,
 * unless the automation set a Content-Type. The body is served from the service's own origin, so
 * it always carries `Content-Security-Policy: sandbox` (a page an automation answers with runs
 * in an opaque origin: no access to the web app's session) and `X-Content-Type-Options: nosniff`.
 * Only the headers a `respond` step may set are sent (`responseHeaderRefusal`, checked at save and
 * when the step runs): a response journalled before that rule held loses the others.
 */
export function sendRunResponse(reply: FastifyReply, response: RunResponse): FastifyReply {
  reply.code(response.status);
  let typed = false;
  for (const [name, value] of Object.entries(response.headers)) {
    if (responseHeaderRefusal(name, response.status) !== undefined) continue;
    reply.header(name, value);
    if (name.toLowerCase() === 'content-type') typed = true;
  }
  reply.header('content-security-policy', "sandbox; default-src 'none'");
  reply.header('x-content-type-options', 'nosniff');
  if (response.status === 204 || response.status === 304) return reply.send();
  const text = typeof response.body === 'string';
  if (!typed) reply.type(text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  return reply.send(text ? (response.body as string) : JSON.stringify(response.body));
}
