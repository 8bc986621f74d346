import { client, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

export { receiver, type Received } from '../engine/helpers';
export { sleep, waitFor } from '../helpers/wait';

/** Settings every automation suite runs with: loopback HTTP targets allowed, no inbound throttle in the way. */
export const AUTOMATION_ENV = {
  TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
  TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000',
  TASKSPACE_WEBHOOKS_POLL_MS: '100',
};

/** A real server with the automation settings. */
export function automationServer(
  env: Record<string, string> = {},
  kinds?: NonNullable<Parameters<typeof startServer>[0]>['kinds'],
): Promise<TestServer> {
  return startServer({ env: { ...AUTOMATION_ENV, ...env }, kinds });
}

type Api = ReturnType<typeof client>;

/** Creates an automation through the API; throws on failure. */
export async function createAutomation(
  api: Api,
  workspaceId: string,
  definition: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const res = await api.post('/api/v1/automations', { workspaceId, ...definition, ...extra });
  if (res.status !== 200) throw new Error(`automation create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item;
}

/** The runs of an automation (newest first). */
export async function runsOf(api: Api, automationId: string, query = ''): Promise<any[]> {
  const res = await api.get(`/api/v1/automations/${automationId}/runs?limit=100${query}`);
  if (res.status !== 200) throw new Error(`runs failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items;
}

const SETTLED = new Set(['completed', 'failed', 'rejected', 'cancelled', 'skipped', 'waiting']);

/** Waits until the automation has `count` runs that all settled (final or waiting); returns them oldest first with steps. */
export async function settledRuns(api: Api, automationId: string, count = 1, ms = 15000): Promise<any[]> {
  const runs = await waitFor(
    async () => {
      const list = await runsOf(api, automationId);
      return list.length >= count && list.every((r) => SETTLED.has(r.status)) && list;
    },
    `${count} settled run(s) of ${automationId}`,
    ms,
  );
  const full = [];
  for (const r of runs.reverse()) full.push((await api.get(`/api/v1/automations/${automationId}/runs/${r.id}`)).body.item);
  return full;
}

/**
 * Like {@link settledRuns}, but waits until every run has ended (a run waiting on an approval, a
 * timer or a child counts as not yet ended).
 */
export async function endedRuns(api: Api, automationId: string, count = 1, ms = 15000): Promise<any[]> {
  await waitFor(
    async () => {
      const list = await runsOf(api, automationId);
      return list.length >= count && list.every((r) => SETTLED.has(r.status) && r.status !== 'waiting');
    },
    `${count} ended run(s) of ${automationId}`,
    ms,
  );
  return settledRuns(api, automationId, count, ms);
}

/** Waits until a run has the given status; returns it with steps. */
export async function runWithStatus(api: Api, automationId: string, runId: string, status: string, ms = 15000): Promise<any> {
  return waitFor(
    async () => {
      const res = await api.get(`/api/v1/automations/${automationId}/runs/${runId}`);
      return res.body.item?.status === status && res.body.item;
    },
    `run ${runId} to be ${status}`,
    ms,
  );
}
