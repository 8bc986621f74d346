import { secretValues } from '../secrets/service';
import { createEngine, EngineError, type Engine, type RunRecord } from '@taskspace/engine';
import type { FastifyInstance } from 'fastify';
import { transaction } from '../../platform/db/connection';
import { claimInboundRequests, completeInboundRequest, releaseInboundRequest, type InboundRequest } from './inbound';
import { readCursor, writeCursor } from '../events/cursors';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { readEvents } from '../events/outbox';
import type { Services } from '../../services';
import { GuardedHttpAdapter } from './http-adapter';
import { DomainServiceAdapter } from './service-adapter';
import { SqliteRunStore } from './sqlite-store';

/**
 * The automation runtime of the server (README "Automations"): the engine over SQLite, the
 * in-process service and the guarded HTTP client, plus two consumers that feed it:
 *
 * - the outbox consumer reads `events` after its own persisted cursor (`outbox_cursors` row
 *   {@link AUTOMATION_CURSOR}) and submits each event; runs are de-duplicated by event id, so
 *   re-reading after a crash starts nothing twice;
 * - the inbound consumer claims accepted inbound webhook requests and starts the owning
 *   automation's run, de-duplicated by the `Idempotency-Key` header (24 h) or else by the
 *   request id, then marks the request done with the run id.
 *
 * Both run on a {@link WorkerLoop}: they wake on `svc.signals` and poll every
 * `config.webhooks.pollMs` (`TASKSPACE_WEBHOOKS_POLL_MS`) as a fallback.
 */

/** Cursor name of the automation engine's outbox reader. */
export const AUTOMATION_CURSOR = 'automations';
/** Events or inbound requests handled per batch. */
const BATCH = 200;
/** Lease of a claimed inbound request, in ms: unfinished claims become claimable again after it. */
const INBOUND_LEASE_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The automation runtime (engine and consumers). */
    automations: AutomationRuntime;
  }
}

/** The engine and its consumers, as decorated on the app (`app.automations`). */
export class AutomationRuntime {
  readonly engine: Engine;
  readonly store: SqliteRunStore;
  private readonly http: GuardedHttpAdapter;
  private readonly events: WorkerLoop;
  private readonly inbound: WorkerLoop;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly settledListeners = new Set<(run: RunRecord) => void>();

  constructor(
    private readonly svc: Services,
    log: WorkerLog,
  ) {
    this.store = new SqliteRunStore(svc.db, { links: svc.links, clock: svc.clock, signals: svc.signals });
    this.http = new GuardedHttpAdapter(svc.addressPolicy);
    this.engine = createEngine({
      store: this.store,
      service: new DomainServiceAdapter(svc),
      http: this.http,
      clock: svc.clock,
      logger: log,
      secrets: (workspaceId) => secretValues(svc, workspaceId),
      onRunSettled: (run) => {
        for (const listener of this.settledListeners) listener(run);
      },
    });
    const poll = svc.config.webhooks.pollMs;
    // A step handles one batch: again at once while batches come full, else after the poll interval.
    this.events = new WorkerLoop('automation outbox consumer', async () => ((await this.consumeEvents()) ? 0 : poll), log, poll);
    this.inbound = new WorkerLoop('automation inbound consumer', async () => ((await this.consumeInbound()) ? 0 : poll), log, poll);
  }

  /** Listens to runs settling (final status or waiting); returns the function that removes the listener. */
  onRunSettled(listener: (run: RunRecord) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** Resumes stored runs and starts the consumers. */
  async start(): Promise<void> {
    await this.engine.start();
    this.unsubscribe.push(
      this.svc.signals?.on('events', () => this.events.wake()) ?? (() => undefined),
      this.svc.signals?.on('inbound', () => this.inbound.wake()) ?? (() => undefined),
    );
    this.events.start();
    this.inbound.start();
  }

  /** Stops the consumers and the engine (runs in flight get a grace period; the rest resume at the next start). */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await Promise.all([this.events.stop(), this.inbound.stop()]);
    await this.engine.stop();
    await this.http.close();
  }

  /** One batch of outbox events; true when there may be more. */
  private async consumeEvents(): Promise<boolean> {
    const { db } = this.svc;
    const events = readEvents(db, readCursor(db, AUTOMATION_CURSOR), BATCH);
    if (events.length === 0) return false;
    for (const event of events) {
      await this.engine.submit({
        id: event.id,
        type: event.type,
        workspaceId: event.workspaceId,
        payload: event.payload,
        depth: event.depth,
        at: Date.parse(event.timestamp),
      });
    }
    transaction(db, () => writeCursor(db, AUTOMATION_CURSOR, events[events.length - 1]!.seq));
    return events.length === BATCH;
  }

  /** One batch of inbound webhook requests; true when there may be more. */
  private async consumeInbound(): Promise<boolean> {
    const requests = claimInboundRequests(this.svc, { limit: BATCH, leaseMs: INBOUND_LEASE_MS });
    for (const request of requests) await this.startFromInbound(request);
    return requests.length === BATCH;
  }

  private async startFromInbound(request: InboundRequest): Promise<void> {
    if (!request.automationId) {
      completeInboundRequest(this.svc, request.id, { error: 'the webhook belongs to no automation' });
      return;
    }
    try {
      const run = await this.engine.startRun(request.automationId, request.body, {
        dedupeKey: request.idempotencyKey !== null ? `idempotency:${request.idempotencyKey}` : `inbound:${request.id}`,
        sourceId: request.id,
      });
      completeInboundRequest(this.svc, request.id, { runId: run.id });
    } catch (error) {
      if (error instanceof EngineError) {
        completeInboundRequest(this.svc, request.id, { error: error.message });
        return;
      }
      releaseInboundRequest(this.svc, request.id);
      throw error;
    }
  }
}

/**
 * Wires the automation runtime into the app: decorates `app.automations`, starts on listen
 * (after the database is open), stops before close (while it is still open).
 */
export function installAutomations(app: FastifyInstance, svc: Services): AutomationRuntime {
  const runtime = new AutomationRuntime(svc, app.log);
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
