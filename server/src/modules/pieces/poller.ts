import { createHash } from 'node:crypto';
import { coerceProps, type AutomationRecord, type Engine, type RunStore } from '@taskspace/engine';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import type { ServerPieces } from './host';
import { POLL_ENABLED_KEY, type PieceHooks } from './hooks';
import { pieceStore } from './store';
import type { Services } from '../../services';

/**
 * Polling triggers of pieces (docs/integrations.md "Triggers"): every `TASKSPACE_PIECES_POLL_MS`
 * the leader polls each enabled automation whose trigger is a piece's polling trigger. The first
 * poll of an automation (or of a new version, or after it was enabled again) calls the trigger's
 * `onEnable`, which records where the piece stands (its newest item, the time) in the piece store,
 * so old items start nothing; each later poll calls the trigger's `run`, and every item it returns
 * starts one run whose `trigger.*` variables are the item's fields (de-duplicated on the item).
 * A failing poll is logged and tried again at the next interval. Each interval also syncs every
 * automation's piece trigger ({@link PieceHooks.syncAll}: `onDisable` of what is no longer wanted,
 * `onEnable` of webhook triggers that failed to enable or were enabled otherwise than by the API).
 */
export class PiecePoller {
  private readonly loop: WorkerLoop;

  constructor(
    private readonly svc: Services,
    private readonly engine: Engine,
    private readonly runs: RunStore,
    private readonly pieces: ServerPieces,
    private readonly hooks: PieceHooks,
    private readonly log: WorkerLog,
  ) {
    const every = svc.config.piecesPollMs;
    this.loop = new WorkerLoop(
      'piece trigger poller',
      async () => {
        await this.pollAll();
        return every;
      },
      log,
      every,
    );
  }

  /** Starts polling (the leader's work). */
  start(): void {
    this.loop.start();
  }

  /** Stops polling; resolves when a poll in progress has ended. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One poll of every enabled automation with a piece polling trigger. */
  async pollAll(): Promise<void> {
    if (!this.svc.leadership.leading) return;
    await this.hooks.syncAll();
    for (const kind of this.engine.kinds.triggers()) {
      if (kind.source !== 'poll' || !kind.piece) continue;
      for (const automation of await this.runs.listEnabledAutomations(kind.type)) {
        try {
          await this.pollOne(automation);
          await this.hooks.clearFailure(automation.id);
        } catch (error) {
          const enabling = (error as { op?: unknown }).op === 'enable';
          await this.hooks.failed(automation.id, enabling ? 'enable' : 'poll', error).catch((e: unknown) => {
            this.log.warn({ err: e, automationId: automation.id }, 'piece trigger poll failed');
          });
        }
      }
    }
  }

  private async pollOne(automation: AutomationRecord): Promise<void> {
    const trigger = automation.definition.trigger as unknown as { type: string; connectionId?: string; props?: Record<string, unknown> };
    const dot = trigger.type.indexOf('.');
    const piece = this.pieces.catalogue.find(trigger.type.slice(0, dot));
    const name = trigger.type.slice(dot + 1);
    const info = piece?.triggers.find((t) => t.name === name);
    if (!piece || !info) return;
    const store = pieceStore(this.svc);
    const scope = `automation:${automation.id}`;
    const marker = `${automation.version}:${automation.updatedAt}`;
    const call = {
      piece,
      action: name,
      ...(trigger.connectionId ? { connectionId: trigger.connectionId } : {}),
      propsValue: coerceProps(info.props, trigger.props ?? {}),
      context: { workspaceId: automation.workspaceId, automationId: automation.id },
    };
    if ((await store.get(scope, POLL_ENABLED_KEY)) !== marker) {
      await this.pieces.runner.call({ ...call, op: 'enable' }).catch((error: unknown) => {
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), { op: 'enable' });
      });
      await store.put(scope, POLL_ENABLED_KEY, marker);
      await this.hooks.recordPolling(automation);
      return;
    }
    const items = (await this.pieces.runner.call({ ...call, op: 'poll' })) as unknown[];
    for (const item of items) {
      const variables = item && typeof item === 'object' && !Array.isArray(item) ? item : { item };
      const key = createHash('sha256').update(JSON.stringify(item)).digest('base64url');
      await this.engine.startRun(automation.id, variables, { dedupeKey: `poll:${key}` });
    }
  }
}
