import type { Config } from './config';
import type { Clock } from './platform/clock';
import type { Signals } from './platform/signals';
import type { Store } from './platform/db/store';
import type { ModelProvider } from './models/provider';
import type { GuardPolicy } from './platform/guarded-http';
import type { SecretBox } from './platform/secret-box';
import type { TaskPageCache } from './modules/tasks/page-cache';
import type { InputValidator } from './http/validate-input';
import type { GroupCommit } from './platform/db/group-commit';
import type { WorkNotifier } from './platform/db/postgres/notifications';
import type { Leadership } from './platform/leadership';
import type { Block, Task } from './modules/tasks/item';
import type { LiveHub } from './modules/live/hub';

/**
 * Everything a domain function may need besides its arguments: storage, settings, time, the
 * model provider, link building and the app's caches. Built once per server by `buildApp` (the
 * composition root: no module holds state of its own, so two apps in one process share nothing); the engine's adapter
 * reuses the same object so automation actions go through the same logic as the API.
 */
export interface Services {
  /** Storage for both stores (platform/db/store.ts): run operations written over its `sql` handle. */
  store: Store;
  config: Config;
  clock: Clock;
  models: ModelProvider;
  /** Builds absolute links from the public base URL (TASKSPACE_PUBLIC_URL or the listening address). */
  links: Links;
  /**
   * Optional in-process wake-ups for background workers (outbox dispatcher, delivery worker,
   * the automation outbox consumer, calls waiting on a run's response, live streams). Workers also poll, so code may skip notifying.
   */
  signals?: Signals;
  /** Who outbound HTTP may reach (SSRF guard), built once from the configuration. */
  addressPolicy: GuardPolicy;
  /** Encryption at rest of webhook signing secrets, with the app's key. */
  secretBox: SecretBox;
  /** Recently read task list pages, checked against `projects.version`. */
  taskPages: TaskPageCache<Task | Block>;
  /** Checks inputs that do not come through a route (the engine's task actions) against the route schemas. */
  inputs: InputValidator;
  /**
   * Group commit: the task write routes' writes share one transaction per turn of the event loop
   * on SQLite, and one per group of a project's lane on PostgreSQL; creates of a group run as one
   * batch (platform/db/group-commit.ts).
   */
  writes: GroupCommit;
  /**
   * On PostgreSQL: wakes the other processes of the database when work was stored for them
   * (platform/db/postgres/notifications.ts): outbox rows for the leader, runs and cancel requests
   * for the processes executing runs.
   */
  workNotifier?: WorkNotifier;
  /** Whether this process leads its database: does the work done once per database (platform/leadership.ts). */
  leadership: Leadership;
  /** On PostgreSQL, in an `all` or `worker` process: its id in run leases (platform/db/postgres/presence.ts). */
  workerId?: string;
  /** Live updates: the one reader of changes that serves every open `GET /api/v1/live` stream. */
  live: LiveHub;
}

/** Absolute link building. */
export interface Links {
  /** The public base URL without a trailing slash. */
  base(): string;
  /** `base()` + `path` (which starts with '/'). */
  url(path: string): string;
  /**
   * The absolute link of a project's page in the web app, as event payloads carry it
   * (`projectLink`; a person opening it lands on the project, an API client finds the id in it).
   */
  project(projectId: string): string;
}

/** Links from a fixed base, or from the address once the server listens. */
export class PublicLinks implements Links {
  private listening: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** Records the address the server listens on; used when no public URL is configured. */
  setListening(host: string, port: number): void {
    const shown = host.includes(':') ? `[${host}]` : host;
    this.listening = `http://${shown}:${port}`;
  }

  base(): string {
    return this.configured ?? this.listening ?? 'http://127.0.0.1:8787';
  }

  url(path: string): string {
    return this.base() + path;
  }

  project(projectId: string): string {
    return this.url('/projects/' + projectId);
  }
}
