import { timingSafeEqual } from 'node:crypto';
import { coerceProps, type AutomationRecord, type Engine, type PieceInfo, type PieceTriggerInfo, type RunStore } from '@taskspace/engine';
import { newSecret } from '../../platform/ids';
import { ownerGone } from '../../platform/db/postgres/presence';
import type { Services } from '../../services';
import type { WorkerLog } from '../../platform/worker-loop';
import type { ServerPieces } from './host';
import { pieceStore } from './store';

/** The piece-store key (automation scope) of the trigger a piece was enabled for: an {@link EnabledTrigger}. */
export const TRIGGER_KEY = '__taskspace.trigger';

/** The piece-store key (automation scope) of the last failed `onEnable`, `onDisable` or poll: a {@link TriggerFailure}. */
export const TRIGGER_ERROR_KEY = '__taskspace.triggerError';

/** The piece-store key that records which version of an automation its polling trigger was enabled for (the poller's). */
export const POLL_ENABLED_KEY = '__taskspace.enabledFor';

/** The piece-store key (automation scope) a process holds while it syncs the automation's trigger: `{by, token}` (see `PieceHooks.claim`). */
export const SYNC_CLAIM_KEY = '__taskspace.syncing';

/** The time limit of an `onEnable` or `onDisable` call, in ms (the API waits for it). */
const TRIGGER_CALL_TIMEOUT_MS = 30_000;

/**
 * How long a sync claim holds, in ms: an `onDisable` and an `onEnable` at their time limits and
 * the store writes. A claim older than this is a process that ended mid-sync; another takes it over.
 */
const SYNC_CLAIM_MS = 2 * TRIGGER_CALL_TIMEOUT_MS + 10_000;

/** How often a sync waiting for another process's claim on the same automation looks again, in ms. */
const SYNC_CLAIM_POLL_MS = 100;

/** Bytes of randomness in a piece hook URL's token (192 bits; 32 base64url characters). */
const HOOK_TOKEN_BYTES = 24;

/** What the host recorded when it enabled a piece trigger of an automation (`onEnable` succeeded). */
export interface EnabledTrigger {
  workspaceId: string;
  /** `poll` or `piece-webhook`. */
  source: string;
  /** The automation's trigger (`{type, connectionId, props}`) as JSON, as it was enabled. */
  trigger: string;
  /** Webhook triggers: the token of the URL handed to `onEnable` (`/webhooks/pieces/<automationId>/<token>`). */
  token?: string;
  /** When, ms epoch. */
  enabledAt: number;
}

/** The last failed `onEnable`, `onDisable` or poll of an automation's piece trigger (cleared by the next success). */
export interface TriggerFailure {
  op: 'enable' | 'disable' | 'poll';
  message: string;
  at: number;
}

/** A piece trigger of an automation definition's trigger: the piece, the trigger and the call's fields. */
export interface PieceTriggerCall {
  piece: PieceInfo;
  trigger: PieceTriggerInfo;
  connectionId?: string;
  propsValue: Record<string, unknown>;
}

/** The piece trigger a definition's trigger names, or undefined when it names none. */
export function pieceTriggerOf(pieces: ServerPieces, definitionTrigger: unknown): PieceTriggerCall | undefined {
  const t = definitionTrigger as { type?: unknown; connectionId?: unknown; props?: Record<string, unknown> };
  if (typeof t?.type !== 'string') return undefined;
  const dot = t.type.indexOf('.');
  const piece = dot > 0 ? pieces.catalogue.find(t.type.slice(0, dot)) : undefined;
  const trigger = piece?.triggers.find((x) => x.name === t.type!.toString().slice(dot + 1));
  if (!piece || !trigger) return undefined;
  return {
    piece,
    trigger,
    ...(typeof t.connectionId === 'string' && t.connectionId !== '' ? { connectionId: t.connectionId } : {}),
    propsValue: coerceProps(trigger.props, t.props ?? {}),
  };
}

/** Whether `token` is the token of `record` (constant time). */
export function tokenMatches(record: EnabledTrigger | null, token: string): boolean {
  if (!record?.token) return false;
  const a = Buffer.from(record.token);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The lifecycle of the piece triggers of automations (docs/integrations.md "Triggers"), after
 * Activepieces' engine (`trigger-helper.ts`): when an automation whose trigger is a piece's
 * WEBHOOK trigger is saved enabled or enabled, the trigger's `onEnable` is called with
 * `webhookUrl`, a URL of this server only this automation's enabling knows
 * (`/webhooks/pieces/<automationId>/<token>`), and the automation's piece store; when it is
 * disabled, deleted or its trigger changes, `onDisable` is called with the same URL and store —
 * for polling triggers too — best effort: a failure is logged and recorded
 * ({@link TRIGGER_ERROR_KEY}), the disable goes on and the URL stops working at once. The API
 * syncs an automation after each change; the leader syncs every automation at each poll interval
 * (changes made otherwise, and an `onEnable` that failed, are caught up there).
 */
export class PieceHooks {
  /** Syncs in progress by automation id: one at a time per automation in this process. */
  private readonly syncing = new Map<string, Promise<void>>();
  /**
   * Who this process is in its sync claims: its worker id (PostgreSQL `all` and `worker`
   * processes, which hold a presence lock), else `api:<random>` (an `api` process, SQLite).
   */
  private readonly claimant: string;

  constructor(
    private readonly svc: Services,
    private readonly engine: Engine,
    private readonly runs: RunStore,
    private readonly pieces: ServerPieces,
    private readonly log: WorkerLog,
  ) {
    this.claimant = svc.workerId ?? `api:${newSecret(9)}`;
  }

  /** The absolute URL of an automation's piece hook with `token`. */
  hookUrl(automationId: string, token: string): string {
    return this.svc.links.url(`/webhooks/pieces/${encodeURIComponent(automationId)}/${token}`);
  }

  /** What the automation's piece trigger was enabled with, or null. */
  async enabled(automationId: string): Promise<EnabledTrigger | null> {
    return (await pieceStore(this.svc).get(`automation:${automationId}`, TRIGGER_KEY)) as EnabledTrigger | null;
  }

  /** Records that the poller enabled `automation`'s polling trigger (so disabling it calls `onDisable`). */
  async recordPolling(automation: AutomationRecord): Promise<void> {
    const record: EnabledTrigger = {
      workspaceId: automation.workspaceId,
      source: 'poll',
      trigger: JSON.stringify(automation.definition.trigger),
      enabledAt: this.svc.clock.now(),
    };
    await pieceStore(this.svc).put(`automation:${automation.id}`, TRIGGER_KEY, record);
  }

  /**
   * Brings one automation's piece trigger in line with the automation: `onDisable` for what was
   * enabled and is no longer wanted (deleted, disabled, another trigger), `onEnable` for a
   * webhook trigger that is wanted and not enabled. Never throws (failures are logged and recorded).
   */
  sync(automationId: string): Promise<void> {
    const previous = this.syncing.get(automationId) ?? Promise.resolve();
    const next = previous
      .then(() => this.syncNow(automationId))
      .catch((error: unknown) => {
        this.log.warn({ err: error, automationId }, 'piece trigger sync failed');
      });
    this.syncing.set(automationId, next);
    void next.finally(() => {
      if (this.syncing.get(automationId) === next) this.syncing.delete(automationId);
    });
    return next;
  }

  /** Syncs every automation with an enabled piece trigger or a webhook piece trigger that should be (the leader, each poll interval). */
  async syncAll(): Promise<void> {
    const ids = new Set<string>();
    const rows = await this.svc.store.run(
      this.svc.store.sql.all<{ scope: string }>('SELECT scope FROM piece_store WHERE key = ?', [TRIGGER_KEY]),
    );
    for (const { scope } of rows) if (scope.startsWith('automation:')) ids.add(scope.slice('automation:'.length));
    for (const kind of this.engine.kinds.triggers()) {
      if (kind.source !== 'piece-webhook' || !kind.piece) continue;
      for (const automation of await this.runs.listEnabledAutomations(kind.type)) ids.add(automation.id);
    }
    for (const id of ids) await this.sync(id);
  }

  /**
   * One sync at a time per automation across the processes of a database: the API's sync after a
   * change on one process and the leader's periodic sync on another would otherwise both find the
   * trigger not enabled and both call `onEnable` (two registrations at the service, one of them
   * never removed). Waits for another process's sync of the automation to end, then syncs.
   */
  private async syncNow(automationId: string): Promise<void> {
    const claimed = await this.claim(automationId);
    try {
      await this.syncClaimed(automationId);
    } finally {
      await this.svc.store.run(
        this.svc.store.sql.run('DELETE FROM piece_store WHERE scope = ? AND key = ? AND value_json = ?', [
          `automation:${automationId}`,
          SYNC_CLAIM_KEY,
          claimed,
        ]),
      );
    }
  }

  /**
   * Takes the automation's sync claim ({@link SYNC_CLAIM_KEY}, `{by, token}`, `by` the
   * {@link claimant}): at once when none is held or its holder's process has ended (on SQLite any
   * claim found was left by an earlier process, one process per data directory; on PostgreSQL one
   * whose holder is a worker id without its presence lock, see platform/db/postgres/presence.ts),
   * else when its holder releases it or it is older than {@link SYNC_CLAIM_MS} (an `api` process
   * holds no presence lock: its claims end only so). This process's own syncs of one automation
   * are already one at a time ({@link sync}), so a claim naming this process is left over too.
   * @returns the claim's value as stored (releasing deletes the claim only while it is still this one).
   */
  private async claim(automationId: string): Promise<string> {
    const scope = `automation:${automationId}`;
    const by = this.claimant;
    const value = JSON.stringify({ by, token: newSecret(HOOK_TOKEN_BYTES) });
    const { store } = this.svc;
    const holder = "CAST(value_json AS jsonb) ->> 'by'";
    // PostgreSQL: a worker whose process ended, or this process. SQLite: any holder.
    const leftOver =
      store.dialect === 'postgres'
        ? { sql: `(${holder} ~ '^[0-9]+:' AND ${ownerGone(holder)}) OR ${holder} = ?`, params: [by] }
        : { sql: '1 = 1', params: [] };
    for (;;) {
      const now = this.svc.clock.now();
      const taken = await store.run(
        store.sql.run(
          'INSERT INTO piece_store (scope, key, value_json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING',
          [scope, SYNC_CLAIM_KEY, value, now],
        ),
      );
      if (taken.changes === 1) return value;
      const overtaken = await store.run(
        store.sql.run(
          `UPDATE piece_store SET value_json = ?, updated_at = ? WHERE scope = ? AND key = ? AND (updated_at < ? OR ${leftOver.sql})`,
          [value, now, scope, SYNC_CLAIM_KEY, now - SYNC_CLAIM_MS, ...leftOver.params],
        ),
      );
      if (overtaken.changes === 1) return value;
      await new Promise((resolve) => setTimeout(resolve, SYNC_CLAIM_POLL_MS));
    }
  }

  private async syncClaimed(automationId: string): Promise<void> {
    const automation = await this.engine.getAutomation(automationId);
    const record = await this.enabled(automationId);
    const current = automation ? JSON.stringify(automation.definition.trigger) : undefined;
    const kept = record !== null && automation?.enabled === true && record.trigger === current;
    if (record && !kept) await this.disable(automationId, record);
    // A deleted automation's piece store goes once its trigger's onDisable has had it.
    if (!automation) await pieceStore(this.svc).clear(`automation:${automationId}`);
    if (!automation?.enabled || kept) return;
    const kind = this.engine.kinds.trigger(automation.definition.trigger.type);
    if (kind?.source === 'piece-webhook' && kind.piece) await this.enable(automation);
  }

  private async enable(automation: AutomationRecord): Promise<void> {
    const call = pieceTriggerOf(this.pieces, automation.definition.trigger);
    if (!call) return;
    const token = newSecret(HOOK_TOKEN_BYTES);
    const store = pieceStore(this.svc);
    const scope = `automation:${automation.id}`;
    try {
      await this.pieces.runner.call({
        piece: call.piece,
        op: 'enable',
        action: call.trigger.name,
        ...(call.connectionId ? { connectionId: call.connectionId } : {}),
        propsValue: call.propsValue,
        webhookUrl: this.hookUrl(automation.id, token),
        context: { workspaceId: automation.workspaceId, automationId: automation.id },
        timeoutMs: TRIGGER_CALL_TIMEOUT_MS,
      });
    } catch (error) {
      await this.failed(automation.id, 'enable', error);
      return;
    }
    const record: EnabledTrigger = {
      workspaceId: automation.workspaceId,
      source: 'piece-webhook',
      trigger: JSON.stringify(automation.definition.trigger),
      token,
      enabledAt: this.svc.clock.now(),
    };
    await store.put(scope, TRIGGER_KEY, record);
    await store.delete(scope, TRIGGER_ERROR_KEY);
  }

  /** `onDisable` with what was enabled (best effort), then forgets it: the URL answers 404 from here on. */
  private async disable(automationId: string, record: EnabledTrigger): Promise<void> {
    const store = pieceStore(this.svc);
    const scope = `automation:${automationId}`;
    // Forgotten first: a call to the URL while onDisable runs is already refused.
    await store.delete(scope, TRIGGER_KEY);
    if (record.source === 'poll') await store.delete(scope, POLL_ENABLED_KEY);
    const call = pieceTriggerOf(this.pieces, JSON.parse(record.trigger));
    if (!call) return;
    try {
      await this.pieces.runner.call({
        piece: call.piece,
        op: 'disable',
        action: call.trigger.name,
        ...(call.connectionId ? { connectionId: call.connectionId } : {}),
        propsValue: call.propsValue,
        ...(record.token ? { webhookUrl: this.hookUrl(automationId, record.token) } : {}),
        context: { workspaceId: record.workspaceId, automationId },
        timeoutMs: TRIGGER_CALL_TIMEOUT_MS,
      });
    } catch (error) {
      await this.failed(automationId, 'disable', error);
    }
  }

  /** What went wrong last with the automation's piece trigger, or null. */
  async lastFailure(automationId: string): Promise<TriggerFailure | null> {
    return (await pieceStore(this.svc).get(`automation:${automationId}`, TRIGGER_ERROR_KEY)) as TriggerFailure | null;
  }

  /** Forgets the automation's last failure (a later enable or poll succeeded). */
  async clearFailure(automationId: string): Promise<void> {
    if (await this.lastFailure(automationId)) await pieceStore(this.svc).delete(`automation:${automationId}`, TRIGGER_ERROR_KEY);
  }

  /** Logs and records a failed `op` of the automation's piece trigger (its status shows it, see `GET /automations/{id}/trigger`). */
  async failed(automationId: string, op: TriggerFailure['op'], error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.log.warn({ automationId, op, error: message }, `piece trigger ${op} failed`);
    const failure: TriggerFailure = { op, message: message.slice(0, 2000), at: this.svc.clock.now() };
    await pieceStore(this.svc).put(`automation:${automationId}`, TRIGGER_ERROR_KEY, failure);
  }
}
