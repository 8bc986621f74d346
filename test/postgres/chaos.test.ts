import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, launchServer, OWNER_TOKEN, tempDataDir, type ChildServer, type LaunchedServer } from '../helpers/server';
import { receiver, waitFor } from '../automations/helpers';
import {
  deliveryReceiver,
  firstDeliveryMs,
  idNumber,
  machineLoad,
  quantile,
  repeatedAttempts,
  retryGaps,
  type Disruption,
} from './chaos-deliveries';

/**
 * Chaos on one PostgreSQL database (docs "Operations", "Roles" and "Standby servers"): three server
 * processes under mixed load — task and project writes from four clients, signed deliveries to a
 * loopback receiver, automations with a delay, a failing-then-recovering HTTP step and an
 * approval, a schedule every second — while processes are killed with SIGKILL twice. Two
 * layouts: three `all` processes, a leader and two followers that all serve and execute runs
 * (each kill hits the leader; a follower takes over, and the dead process's claimed runs are taken
 * over when their leases run out; between the kills the leader is also stopped with SIGSTOP past
 * its lease: a follower takes over, and the stalled leader, continued, stops and is started
 * again as a supervisor would); and a leader, an api process and a standby (the api process is
 * killed, then the leader). Afterwards no acknowledged write is missing, no task create was
 * answered 503 BUSY (writes to one project take turns over the processes), no automation run
 * failed, no automation's task is made twice, every project's signed delivery arrived and none
 * is left `sending`, and every schedule slot fired exactly once (slots missed while the lead changed
 * hands are caught up by the next leader).
 *
 * Deliveries (docs "Webhooks", "Guarantees" and "Retries"): three registrations get every
 * `project.created` — one answers at once, one answers 503 to the first two attempts of a third of
 * its deliveries, one holds the first attempt of a quarter of them for 1.5 s (so kills and the
 * stall catch attempts in flight). No attempt arrives twice under one attempt number (a repeat
 * carries a higher one), the first attempt of a delivery arrives within {@link FIRST_DELIVERY_P99_MS}
 * of its event at the 99th percentile and {@link FIRST_DELIVERY_P50_MS} at the median (with a
 * standby, the only sender after the kill, over the events raised outside its start), and a retry arrives within its configured wait plus
 * {@link RETRY_SLACK_MS} (and not before half of it). The stalled leader is replaced within its
 * lease plus {@link TAKEOVER_SLACK_MS}. The figures and the machine's load are printed.
 */

/** The leader lease of every process of the test, in ms (a busy 2-core machine can starve a leader's renewal past 2 s). */
const LEADER_LEASE_MS = 5000;
/** How long the stalled leader stays stopped (SIGSTOP), in ms: well past its lease. */
const STALL_MS = 2 * LEADER_LEASE_MS;
/** The retry settings of the deliveries, in ms. */
const RETRY = { baseMs: 200, maxMs: 1000 };
/** The bound on the 99th percentile of the time from an event to its first delivery, in ms (issue 35: 10 s). */
const FIRST_DELIVERY_P99_MS = 10_000;
/** The bound on its median, in ms (a claim per poll behind a held receiver's backlog took 1.6–3 s). */
const FIRST_DELIVERY_P50_MS = 1500;
/** What a retry may take beyond its configured wait (the outcome's write, the claim, a loaded machine), in ms. */
const RETRY_SLACK_MS = 2000;
/** What a take-over may take beyond the lease (the follower's poll, ending the stalled connections, a loaded machine), in ms. */
const TAKEOVER_SLACK_MS = 2500;

/** A layout: what runs beside the first process (an `all` process, the leader). */
type Layout = 'two followers' | 'an api process and a standby';

/** `/healthz` of a process: whether it leads (false when it does not answer). */
async function leads(url: string): Promise<boolean> {
  try {
    return (await call(url, 'GET', '/healthz')).body.leader === true;
  } catch {
    return false;
  }
}

/**
 * Starts a server process and waits for it to listen: up to a minute, as the processes of this
 * test start while the others are under load on a busy 2-core machine.
 */
async function spawnPatiently(env: Record<string, string>): Promise<ChildServer> {
  const launched = launchServer(tempDataDir(), env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not start: ${launched.output()}`)), 60_000);
  });
  try {
    const url = await Promise.race([launched.listening, timeout]);
    return { url, child: launched.child, output: launched.output, stop: launched.stop };
  } catch (error) {
    await launched.stop('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

describe.each<Layout>(['two followers', 'an api process and a standby'])(
  'chaos: a leader and %s on one PostgreSQL database, kill -9 twice',
  (layout) => {
    let database: TestDatabase;
    const processes: { stop(signal?: NodeJS.Signals): Promise<void> }[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      for (const child of processes) await child.stop('SIGKILL');
      await database.drop();
    });

    test('no acknowledged write lost, no task effect duplicated, every delivery made, every slot once', async () => {
      // /flaky/<n> fails its first call, then answers 200; everything else 200 at once.
      const flakyCalls = new Map<string, number>();
      const rx = await receiver((request) => {
        if (!request.url.startsWith('/flaky/')) return { status: 200, body: { ok: true } };
        const seen = (flakyCalls.get(request.url) ?? 0) + 1;
        flakyCalls.set(request.url, seen);
        return { status: seen === 1 ? 503 : 200, body: { ok: seen > 1 } };
      });
      const env = {
        DATABASE_URL: database.url,
        TASKSPACE_WEBHOOKS_SECRET_KEY: 'chaos-test-key-0123456789abcdefgh',
        TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
        // The default poll interval: deliveries must be prompt without a short one.
        TASKSPACE_WEBHOOKS_RETRY_BASE_MS: String(RETRY.baseMs),
        TASKSPACE_WEBHOOKS_RETRY_MAX_MS: String(RETRY.maxMs),
        TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000',
        TASKSPACE_RUN_LEASE_MS: '2000',
        TASKSPACE_LEADER_LEASE_MS: String(LEADER_LEASE_MS),
      };
      // /signed answers at once; /retried answers 503 to attempts 1 and 2 of a third of its
      // deliveries; /held holds the first attempt of a quarter of its deliveries for 1.5 s.
      const hooks = await deliveryReceiver(({ target, id, attempt }) => {
        if (target === '/retried' && idNumber(id) % 3 === 0 && attempt <= 2) return { status: 503 };
        if (target === '/held' && idNumber(id) % 4 === 1 && attempt === 1) return { status: 200, holdMs: 1500 };
        return { status: 200 };
      });
      /** Kills and stalls, for the retry spacing (an attempt cut off is sent again when its sender is found gone). */
      const disruptions: Disruption[] = [];
      let takeoverMs: number | undefined;
      const first = await spawnPatiently(env);
      processes.push(first);
      // The processes that serve requests now; clients spread over them.
      const serving: string[] = [first.url];
      const standbys: LaunchedServer[] = [];
      const standby = () => {
        const s = launchServer(tempDataDir(), { ...env, TASKSPACE_STANDBY: '1' });
        processes.push(s);
        standbys.push(s);
      };
      let apiProcess: ChildServer | undefined;
      const followers: ChildServer[] = [];
      if (layout === 'two followers') {
        for (let i = 0; i < 2; i++) {
          const follower = await spawnPatiently(env);
          expect(follower.output()).toContain('Following: the PostgreSQL database');
          processes.push(follower);
          followers.push(follower);
          serving.push(follower.url);
        }
      } else {
        apiProcess = await spawnPatiently({ ...env, TASKSPACE_ROLE: 'api' });
        processes.push(apiProcess);
        serving.push(apiProcess.url);
        standby();
        await waitFor(() => standbys.every((s) => s.output().includes('Standing by')), 'the standby to wait');
      }

      let active = first.url;
      const api = (method: string, path: string, body?: unknown) => call(active, method, path, { token: OWNER_TOKEN, body });
      const workspaceId = (await api('GET', '/api/v1/workspaces')).body.items[0].id;
      for (const target of ['/signed', '/retried', '/held'])
        expect((await api('POST', '/api/v2/webhooks', { targetUrl: `${hooks.url}${target}`, events: ['project.created'] })).status).toBe(
          200,
        );
      const projectId = (
        await api('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Chaos' })
      ).body.item.id;
      const automation = async (name: string, trigger: unknown, actions: unknown[]) => {
        const res = await api('POST', '/api/v1/automations', { workspaceId, name, trigger, actions });
        expect(res.status).toBe(200);
        return res.body.item;
      };
      const slow = await automation('Slow and flaky', { type: 'webhook' }, [
        { id: 'wait', type: 'delay', seconds: 1 },
        {
          id: 'call',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/flaky/{{ trigger.n }}`,
          retry: { maxAttempts: 6, initialDelayMs: 200, factor: 1 },
        },
        { id: 'make', type: 'task.create', projectId, text: 'slow {{ trigger.n }}' },
      ]);
      const gated = await automation('Gated', { type: 'webhook' }, [
        { id: 'ok', type: 'approval', message: 'go?' },
        { id: 'make', type: 'task.create', projectId, text: 'approved {{ trigger.n }}' },
      ]);
      const ticking = await automation('Tick', { type: 'schedule', cron: '* * * * * *' }, []);

      // Four clients write until told to stop, spread over the serving processes; a refused connection means a process died:
      // it leaves the list (a standby that takes over joins it). Only answers of 200 count as acknowledged.
      const acknowledgedTasks: string[] = [];
      const acknowledgedProjects: string[] = [];
      const fired = { slow: [] as number[], gated: [] as number[] };
      let stopping = false;
      let failures = 0;
      /** Task creates answered 503 BUSY (none expected), and project creates (reported). */
      const busy = { tasks: 0, projects: 0 };
      // Answers other than 200 and 503 BUSY: the stalled leader's requests in flight lose their
      // connections when a follower ends them, which is 503 UNAVAILABLE (not acknowledged); a 500 never.
      const unexpected: string[] = [];
      const note = (res: { status: number; body: { code?: string } }) => {
        if (res.status !== 200 && !(res.status === 503 && (res.body.code === 'BUSY' || res.body.code === 'UNAVAILABLE')))
          unexpected.push(`${res.status} ${res.body.code}`);
      };
      const client = async (k: number) => {
        for (let i = 0; !stopping; i++) {
          if (serving.length === 0) {
            await waitFor(() => serving.length > 0 || stopping, 'a serving process', 30000);
            continue;
          }
          const url = serving[(k + i) % serving.length]!;
          try {
            if (i % 5 === 4) {
              const res = await call(url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, {
                token: OWNER_TOKEN,
                body: { contentType: 'text/markdown', content: `# P ${k}.${i}` },
              });
              if (res.status === 200) acknowledgedProjects.push(res.body.item.id);
              if (res.status === 503 && res.body.code === 'BUSY') busy.projects++;
              note(res);
            } else {
              const res = await call(url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
                token: OWNER_TOKEN,
                body: { tasks: [{ contentType: 'text/plain', content: `c${k} ${i}` }] },
              });
              if (res.status === 200) acknowledgedTasks.push(res.body.item[0].id);
              if (res.status === 503 && res.body.code === 'BUSY') busy.tasks++;
              note(res);
            }
          } catch {
            // A refused connection: that process died.
            failures++;
            const at = serving.indexOf(url);
            if (at >= 0) serving.splice(at, 1);
          }
        }
      };
      const fire = async (a: { webhook: { url: string } }, list: number[], n: number) => {
        try {
          const res = await call(serving[n % serving.length] ?? active, 'POST', new URL(a.webhook.url).pathname, { body: { n } });
          if (res.status === 200) list.push(n);
        } catch {
          // the server died before answering: not acknowledged (it may or may not have run)
        }
      };
      /** After the leader was killed: a standby starts serving, or a follower leads. */
      const takeOver = async (killed: string): Promise<void> => {
        if (layout === 'two followers') {
          const at = serving.indexOf(killed);
          if (at >= 0) serving.splice(at, 1);
          active = serving[0]!;
          await waitFor(async () => (await Promise.all(serving.map(leads))).includes(true), 'a follower to take the lead');
          return;
        }
        const next = await Promise.race(standbys.map((s) => s.listening.then((url) => ({ url, s }))));
        standbys.splice(standbys.indexOf(next.s), 1);
        active = next.url;
        serving.push(next.url);
      };

      const clients = [0, 1, 2, 3].map((k) => client(k));
      for (let n = 0; n < 4; n++) {
        await fire(slow, fired.slow, n);
        await fire(gated, fired.gated, n);
      }
      await waitFor(() => acknowledgedTasks.length >= 40, 'load on the first layout');
      if (apiProcess) {
        // The api process dies; the active one serves on alone and keeps working.
        await apiProcess.stop('SIGKILL');
        await waitFor(() => !serving.includes(apiProcess!.url), 'the clients to leave the dead api process');
      } else {
        const from = Date.now();
        await first.stop('SIGKILL');
        await takeOver(first.url);
        disruptions.push({ what: 'the first leader killed', from, to: Date.now() });
      }
      for (let n = 4; n < 8; n++) await fire(slow, fired.slow, n);
      const beforeSecondKill = acknowledgedTasks.length;
      await waitFor(() => acknowledgedTasks.length >= beforeSecondKill + 40, 'load after the first kill');
      if (layout === 'two followers') {
        // The leader stalls (SIGSTOP) past its lease: the other follower takes the lead over.
        let stalled = followers.find((f) => serving.includes(f.url))!;
        for (const follower of followers) if (serving.includes(follower.url) && (await leads(follower.url))) stalled = follower;
        const other = followers.find((f) => f !== stalled && serving.includes(f.url))!;
        const from = Date.now();
        stalled.child.kill('SIGSTOP');
        await waitFor(() => leads(other.url), 'a follower to take the lead from the stalled leader', 20_000);
        takeoverMs = Date.now() - from;
        // Frozen well past the lease, as a suspended machine would be.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, from + STALL_MS - Date.now())));
        const exited = new Promise((resolve) => stalled.child.once('exit', (code) => resolve(code)));
        stalled.child.kill('SIGCONT');
        // Woken, it finds its connections ended and stops (a supervisor starts it again).
        expect(await exited).toBe(1);
        disruptions.push({ what: 'the leader stalled', from, to: Date.now() });
        expect(stalled.output()).toContain('lost the PostgreSQL server lock');
        const at = serving.indexOf(stalled.url);
        if (at >= 0) serving.splice(at, 1);
        active = other.url;
        const restarted = await spawnPatiently(env);
        processes.push(restarted);
        followers.splice(followers.indexOf(stalled), 1, restarted);
        serving.push(restarted.url);
        for (let n = 8; n < 10; n++) await fire(slow, fired.slow, n);
        const afterStall = acknowledgedTasks.length;
        await waitFor(() => acknowledgedTasks.length >= afterStall + 40, 'load after the stalled leader was replaced');
      }
      // The leader dies; the remaining standby or follower takes over.
      let working: { url: string; stop(signal?: NodeJS.Signals): Promise<void> } = first;
      for (const follower of followers) if (await leads(follower.url)) working = follower;
      const lastKill = Date.now();
      await working.stop('SIGKILL');
      await takeOver(working.url);
      disruptions.push({ what: 'the leader killed', from: lastKill, to: Date.now() });
      const beforeStop = acknowledgedTasks.length;
      await waitFor(() => acknowledgedTasks.length >= beforeStop + 40, 'load after the second kill');
      stopping = true;
      await Promise.all(clients);
      expect(failures).toBeGreaterThan(0);
      // Writes to one project through several processes take turns: none answered 503.
      expect(busy.tasks).toBe(0);
      expect(unexpected).toEqual([]);

      // The approvals are decided on the last server; then every acknowledged run completes.
      for (const n of fired.gated) {
        const run = await waitFor(
          async () => {
            const runs = (await api('GET', `/api/v1/automations/${gated.id}/runs?limit=100`)).body.items as any[];
            return runs.find((r) => r.trigger?.variables?.n === n && r.status === 'waiting');
          },
          `gated run ${n} waiting`,
          30000,
        );
        expect((await api('POST', `/api/v1/automations/${gated.id}/runs/${run.id}/approve`, {})).status).toBe(200);
      }
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        const texts = async () =>
          (await db.query<{ text: string }>('SELECT text FROM tasks WHERE project_id = $1', [projectId])).rows.map((r) => r.text);
        await waitFor(
          async () => {
            const all = await texts();
            return fired.slow.every((n) => all.includes(`slow ${n}`)) && fired.gated.every((n) => all.includes(`approved ${n}`));
          },
          'every acknowledged automation run to make its task',
          30000,
        );
        // No acknowledged write is missing.
        const stored = new Set(
          (await db.query<{ id: string }>('SELECT id FROM tasks WHERE project_id = $1', [projectId])).rows.map((r) => r.id),
        );
        expect(acknowledgedTasks.filter((id) => !stored.has(id))).toEqual([]);
        const projects = new Set((await db.query<{ id: string }>('SELECT id FROM projects')).rows.map((r) => r.id));
        expect(acknowledgedProjects.filter((id) => !projects.has(id))).toEqual([]);
        // No automation made its task twice, acknowledged or not (a call cut off by the kill may have run once).
        const counts = new Map<string, number>();
        for (const text of await texts()) if (/^(slow|approved) \d+$/.test(text)) counts.set(text, (counts.get(text) ?? 0) + 1);
        expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
        // Every acknowledged project's deliveries arrived (at least once), each registration's answered 200 in the end.
        await waitFor(
          () =>
            ['/signed', '/retried', '/held'].every((target) => {
              const delivered = new Set(hooks.seen.filter((s) => s.target === target && s.status === 200).map((s) => s.projectId));
              return acknowledgedProjects.every((id) => delivered.has(id));
            }),
          'every delivery of every acknowledged project',
          30000,
        );
        // No automation run failed (a collision is retried, a store error releases the run).
        const failed = await db.query<{ id: string; error_json: string }>(
          "SELECT id, error_json FROM automation_runs WHERE status = 'failed' AND automation_id IN ($1, $2)",
          [slow.id, gated.id],
        );
        expect(failed.rows).toEqual([]);
        // No delivery is left `sending` (an outcome write that failed is tried again; a dead or
        // stalled process's rows go back to the queue).
        await waitFor(
          async () => (await db.query("SELECT 1 FROM webhook_deliveries WHERE status = 'sending'")).rows.length === 0,
          'no delivery left sending',
          15000,
        );
        // Every schedule slot fired exactly once, from the first to the last: none twice, none
        // missed while the lead changed hands (the new leader catches them up).
        const slots = (
          await db.query<{ trigger_json: string }>('SELECT trigger_json FROM automation_runs WHERE automation_id = $1', [ticking.id])
        ).rows.map((r) => Date.parse(JSON.parse(r.trigger_json).variables.scheduledAt as string));
        expect(slots.length).toBeGreaterThan(0);
        expect(new Set(slots).size).toBe(slots.length);
        const sorted = [...slots].sort((a, b) => a - b);
        const missed: string[] = [];
        for (let at = sorted[0]! + 1000; at < sorted[sorted.length - 1]!; at += 1000)
          if (!slots.includes(at)) missed.push(new Date(at).toISOString());

        // Deliveries: never twice under one attempt number, the first one prompt, retries on time.
        const repeats = repeatedAttempts(hooks.seen);
        // Three `all` processes: every delivery counts. A leader, an api process and a standby: one
        // process sends, so the events raised while the standby starts wait for it; they are left out.
        const firsts = firstDeliveryMs(hooks.seen, layout === 'two followers' ? [] : disruptions);
        const gaps = retryGaps(hooks.seen, '/retried', RETRY, disruptions);
        const late = gaps.filter((g) => g.gapMs > g.boundMs + RETRY_SLACK_MS || g.gapMs < g.boundMs / 2 - 20);
        const sortedGaps = gaps.map((g) => g.gapMs);
        // Where a first delivery's time went: the dispatcher queueing it, then its first claim.
        const stages = (
          await db.query<{ queued: string; claimed: string }>(
            `SELECT d.created_at - e.created_at AS queued, a.started_at - d.created_at AS claimed
               FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq
               JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1`,
          )
        ).rows;
        const queued = stages.map((r) => Number(r.queued));
        const claimed = stages.map((r) => Number(r.claimed));
        // Straight to stderr: jest does not always show a passing suite's console.
        process.stderr.write(
          `chaos (${layout}): ${hooks.seen.length} delivery attempts, ${firsts.length} deliveries; first delivery p50 ${quantile(firsts, 0.5)} ms, ` +
            `p99 ${quantile(firsts, 0.99)} ms, max ${quantile(firsts, 1)} ms (queued by the dispatcher p50 ${quantile(queued, 0.5)} ms, ` +
            `p99 ${quantile(queued, 0.99)} ms; then claimed p50 ${quantile(claimed, 0.5)} ms, p99 ${quantile(claimed, 0.99)} ms); ${gaps.length} retries, gap p50 ${quantile(sortedGaps, 0.5)} ms, ` +
            `max ${quantile(sortedGaps, 1)} ms (waits ${RETRY.baseMs}–${RETRY.maxMs} ms); repeats under one attempt number: ${repeats.length}; ` +
            `take-over of the stalled leader: ${takeoverMs ?? '-'} ms (lease ${LEADER_LEASE_MS} ms); ` +
            `schedule slots ${slots.length}, missed ${missed.length}; ${machineLoad()}\n`,
        );
        expect(missed).toEqual([]);
        expect(repeats).toEqual([]);
        expect(quantile(firsts, 0.99)).toBeLessThan(FIRST_DELIVERY_P99_MS);
        expect(quantile(firsts, 0.5)).toBeLessThan(FIRST_DELIVERY_P50_MS);
        expect(gaps.length).toBeGreaterThan(0);
        expect(late).toEqual([]);
        if (takeoverMs !== undefined) expect(takeoverMs).toBeLessThanOrEqual(LEADER_LEASE_MS + TAKEOVER_SLACK_MS);
        if (layout === 'two followers') {
          // The runs were shared: more than one process executed some (each claims them with its own lease).
          const owners = await db.query<{ owner: string }>(
            "SELECT DISTINCT lease_owner AS owner FROM automation_runs WHERE status = 'completed' AND lease_owner IS NOT NULL",
          );
          expect(owners.rows.length).toBeGreaterThan(1);
        }
      } finally {
        await db.end();
        await rx.close();
        await hooks.close();
      }
    }, 240_000);
  },
);
