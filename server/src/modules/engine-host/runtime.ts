import { secretValues } from '../secrets/service';
import { createEngine, DEFAULT_KINDS, type Engine, type KindDeclaration, type RunRecord, type TriggerEvent } from '@taskspace/engine';
import { ServerPieces } from '../pieces/host';
import { PieceHooks } from '../pieces/hooks';
import { PiecePoller } from '../pieces/poller';
import { newOrderedId } from '../../platform/ids';
import type { FastifyInstance } from 'fastify';
import { InboundThrottle } from './inbound-throttle';
import { AUTOMATION_CURSOR, OutboxCursor } from '../events/cursors';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { readEvents } from '../events/outbox';
import type { Services } from '../../services';
import { GuardedHttpAdapter } from './http-adapter';
import { GuardedMcpClient } from './mcp-adapter';
import { openFresh } from '../connections/oauth-tokens';
import { workspaceMediaReader } from './http-media';
import { DomainServiceAdapter } from './service-adapter';
import { ServiceRunStore } from './run-store';
import { RunEventHook } from './run-transitions';
import { resumeUrlOf } from './resume-url';
import { WorkListener } from '../../platform/db/postgres/notifications';

/**
 * The automation runtime of the server (README "Automations"): the engine over the service's store, the
 * in-process service and the guarded HTTP client, the per-URL throttle of inbound calls, and the
 * outbox consumer that feeds service events to the engine. It reads `events` after its own
 * cursor (`outbox_cursors` row {@link AUTOMATION_CURSOR}, an {@link OutboxCursor}) and submits each
 * batch, each event with the automation and run that caused it (`causedBy`), if any; runs are de-duplicated by event id, so re-reading after a crash starts nothing twice,
 * and the cursor's advance is persisted lazily. It runs on a
 * {@link WorkerLoop}: woken on `svc.signals` (`events`), polling every `config.webhooks.pollMs`
 * (`TASKSPACE_WEBHOOKS_POLL_MS`) as a fallback.
 *
 * Inbound calls need no consumer: the intake (`inbound.ts`) records each call's run in its own
 * transaction and hands it to the engine with `engine.enqueue`.
 */

/** Events handled per batch. */
const BATCH = 200;

declare module 'fastify' {
  interface FastifyInstance {
    /** The automation runtime (engine and consumers). */
    automations: AutomationRuntime;
  }
}

/** The engine and its consumers, as decorated on the app (`app.automations`). */
export class AutomationRuntime {
  readonly engine: Engine;
  readonly store: ServiceRunStore;
  private readonly http: GuardedHttpAdapter;
  /** The Activepieces pieces: their kinds, connections' use and worker pool (docs/integrations.md). */
  readonly pieces: ServerPieces;
  /** Enables and disables the pieces' triggers of automations (`onEnable`, `onDisable`; the URLs of webhook triggers). */
  readonly hooks: PieceHooks;
  /** Polls the pieces' polling triggers and syncs every automation's piece trigger (the leader's work). */
  private readonly poller: PiecePoller;
  /** The per-URL throttle of inbound calls (webhook calls and form posts share a URL's bucket). */
  readonly throttle: InboundThrottle;
  private readonly events: WorkerLoop;
  /** On PostgreSQL: finds the runs and cancel requests api processes recorded ({@link Engine.discover}). */
  private readonly discovery: WorkerLoop;
  /** On PostgreSQL: wake-ups from api processes. */
  private listener: WorkListener | undefined;
  /** How far the outbox consumer has read. */
  private readonly cursor: OutboxCursor;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly settledListeners = new Set<(run: RunRecord) => void>();

  /** `kinds`: further kinds beside the built-in ones and the pieces' ({@link BuildOptions.kinds}). */
  constructor(
    private readonly svc: Services,
    private readonly log: WorkerLog,
    kinds: readonly KindDeclaration[] = [],
  ) {
    // The store stores; the events of run transitions (failure alerts, approval requests) are the host's, written in the run's transaction.
    const hook = new RunEventHook({ links: svc.links, clock: svc.clock, signals: svc.signals });
    this.store = new ServiceRunStore(svc.store, { signals: svc.signals, hook });
    this.http = new GuardedHttpAdapter(svc.addressPolicy, workspaceMediaReader(svc));
    this.pieces = new ServerPieces(svc, this.http);
    this.engine = createEngine({
      kinds: [...DEFAULT_KINDS, ...kinds, ...this.pieces.kinds(new Set([...DEFAULT_KINDS, ...kinds].map((k) => k.type)))],
      store: this.store,
      service: new DomainServiceAdapter(svc),
      http: this.http,
      mcp: new GuardedMcpClient(this.http, (workspaceId, connectionId) => openFresh(svc, this.http, workspaceId, connectionId)),
      clock: svc.clock,
      newId: newOrderedId,
      logger: log,
      secrets: (workspaceId) => svc.store.run(secretValues(svc, workspaceId)),
      onRunSettled: (run) => {
        for (const listener of this.settledListeners) listener(run);
      },
      // An api process records runs; the all and worker processes execute them.
      executes: svc.config.role !== 'api',
      onWork: () => svc.workNotifier?.notify('runs'),
      // On PostgreSQL several processes execute runs, each claiming its own (a lease per run);
      // SQLite's one process keeps the engine's default id, so that it takes its runs back at once after a restart.
      workerId: svc.workerId,
      leaseMs: svc.config.runLeaseMs,
      maxConcurrentRuns: svc.config.engineConcurrency,
      codeWorkers: svc.config.codeSandbox.workers,
      codeWorkersPerWorkspace: svc.config.codeSandbox.workersPerWorkspace,
      codeQueuePerWorkspace: svc.config.codeSandbox.queuePerWorkspace,
      resumeUrl: (runId) => resumeUrlOf(svc, runId),
      firesSchedules: () => svc.leadership.leading,
    });
    this.hooks = new PieceHooks(svc, this.engine, this.store, this.pieces, log);
    this.poller = new PiecePoller(svc, this.engine, this.store, this.pieces, this.hooks, log);
    const poll = svc.config.webhooks.pollMs;
    // A step handles one batch: again at once while batches come full, else after the poll interval.
    this.cursor = new OutboxCursor(svc.store, svc.clock, AUTOMATION_CURSOR);
    this.events = new WorkerLoop('automation outbox consumer', async () => ((await this.consumeEvents()) ? 0 : poll), log, poll);
    this.discovery = new WorkerLoop(
      'automation run discovery',
      async () => {
        await this.engine.discover();
        return poll;
      },
      log,
      poll,
    );
    this.throttle = new InboundThrottle(svc.clock, svc.config.webhooks.inboundPerMinute);
  }

  /** Listens to runs settling (final status or waiting); returns the function that removes the listener. */
  onRunSettled(listener: (run: RunRecord) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /**
   * Claims and resumes stored runs; on PostgreSQL also starts the discovery of runs other processes
   * recorded or left, woken by their notifications (platform/db/postgres/notifications.ts). The
   * outbox consumer starts when this process leads (platform/leadership.ts), now or at a take-over.
   * Nothing in an api process (`TASKSPACE_ROLE=api`), whose engine never executes.
   */
  async start(): Promise<void> {
    if (this.svc.config.role === 'api') return;
    await this.engine.start();
    this.svc.leadership.whenLeading(() => {
      this.unsubscribe.push(this.svc.signals?.on('events', () => this.events.wake()) ?? (() => undefined));
      this.events.start();
      this.poller.start();
      // Schedules are the leader's: a process taking over fires what is due now.
      void this.engine.tick().catch((error: unknown) => this.log.error({ err: error }, 'tick failed'));
    });
    if (this.svc.config.databaseUrl) {
      this.discovery.start();
      // Api processes tell at once what they stored; polling stays the fallback.
      this.listener = new WorkListener(
        this.svc.config.databaseUrl,
        (topic) => {
          if (topic === 'runs') this.discovery.wake();
          else this.svc.signals?.notify(topic);
        },
        this.log,
      );
      await this.listener.start();
    }
  }

  /** Stops the consumers and the engine (runs in flight get a grace period; the rest resume at the next start). */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.listener?.stop();
    await this.discovery.stop();
    await this.events.stop();
    await this.poller.stop();
    await this.cursor.flush();
    await this.engine.stop();
    await this.pieces.close();
    await this.http.close();
  }

  /** One batch of outbox events; true when there may be more. */
  private async consumeEvents(): Promise<boolean> {
    // The leader's work: nothing while this process does not know it still leads (platform/leadership.ts).
    if (!this.svc.leadership.leading) return false;
    const events = await this.svc.store.run(readEvents(this.svc.store.sql, await this.cursor.get(), BATCH));
    if (events.length === 0) return false;
    await this.engine.submitAll(
      events.map((event) => {
        const submitted: TriggerEvent = {
          id: event.id,
          type: event.type,
          workspaceId: event.workspaceId,
          payload: event.payload,
          depth: event.depth,
          at: Date.parse(event.timestamp),
        };
        // The causing automation and run: a task trigger skips its own automation's changes.
        if (event.causedBy) submitted.causedBy = event.causedBy;
        return submitted;
      }),
    );
    await this.cursor.advance(events[events.length - 1]!.seq);
    return events.length === BATCH;
  }
}

/**
 * Wires the automation runtime into the app: decorates `app.automations`, starts on listen
 * (after the database is open), stops before close (while it is still open).
 */
export function installAutomations(app: FastifyInstance, svc: Services, kinds: readonly KindDeclaration[] = []): AutomationRuntime {
  const runtime = new AutomationRuntime(svc, app.log, kinds);
  app.decorate('automations', runtime);
  let started = false;
  app.addHook('onListen', async () => {
    if (started) return;
    started = true;
    await runtime.start();
  });
  app.addHook('preClose', async () => {
    if (!started) return;
    started = false;
    await runtime.stop();
  });
  return runtime;
}
