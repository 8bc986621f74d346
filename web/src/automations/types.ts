/** What the web app reads of an automation (the API item, docs "Automations"). */
export interface Automation {
  id: string;
  workspaceId: string;
  name: string;
  description?: string;
  enabled: boolean;
  version: number;
  trigger: { type: string; [key: string]: unknown };
  actions: Record<string, unknown>[];
  owner?: { handle?: string };
  webhook?: { id?: string; url?: string; requiresToken?: boolean; token?: string };
}

/** A run's step (journal entry). */
export interface Step {
  id: string;
  type: string;
  status: 'running' | 'retrying' | 'waiting' | 'succeeded' | 'failed';
  input?: unknown;
  output?: unknown;
  error?: { code: string; message: string };
  attempts: number;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  nextAttemptAt?: string;
}

/** A run of an automation. */
export interface Run {
  id: string;
  automationId: string;
  version: number;
  status: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'rejected' | 'cancelled' | 'skipped';
  test?: boolean;
  trigger: { type: string; variables?: Record<string, unknown> };
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  waitingFor?: { kind: 'delay' | 'approval' | 'retry'; stepId: string };
  error?: { code: string; message: string; stepId?: string };
  /** The run this one replays. */
  replayOf?: string;
  steps?: Step[];
}

/** Statuses after which a run never changes. */
export const FINAL = new Set<Run['status']>(['completed', 'failed', 'rejected', 'cancelled', 'skipped']);
