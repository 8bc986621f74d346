import Fastify, { type FastifyInstance } from 'fastify';
import type { KindDeclaration } from '@taskspace/engine';
import { ServiceError } from './errors';
import swagger from '@fastify/swagger';
import cookie from '@fastify/cookie';
import { installApiDocs } from './http/api-docs';
import type { Config, TrustProxy } from './config';
import { systemClock, type Clock } from './platform/clock';
import { bootstrap, type BootstrapResult } from './bootstrap';
import {
  envelopeForFrameworkErrors,
  installJsonBodyParser,
  installErrorHandling,
  MAX_PATH_PARAM_LENGTH,
  refuseTextBodies,
} from './http/error-handler';
import { installRequestMetering, RequestMeter } from './auth/hook';
import { errorEnvelope } from './http/schemas';
import { InputValidator, ROUTE_AJV } from './http/validate-input';
import { GroupCommit } from './platform/db/group-commit';
import { openStorage, type Storage } from './platform/db/storage';
import type { ServerLockLostError } from './platform/db/postgres/server-lock';
import { WorkNotifier } from './platform/db/postgres/notifications';
import { serializeRequest } from './http/log';
import { createModelProvider } from './models';
import type { ModelProvider } from './models/provider';
import { PublicLinks, type Services } from './services';
import { registerRoutes } from './route-table';
import { Signals } from './platform/signals';
import { policyFromConfig } from './platform/guarded-http';
import { SecretBox, secretKeyOpensStored } from './platform/secret-box';
import { TaskPageCache } from './modules/tasks/page-cache';
import { installEventWorkers } from './modules/events/workers';
import { installAutomations } from './modules/engine-host/runtime';
import { installRunRetention } from './modules/runs/run-retention';
import { installTrashRetention } from './modules/trash/retention';
import { installBackupSchedule } from './ops/backup-schedule';
import { LiveHub } from './modules/live/hub';
import { installMail } from './modules/mail/workers';

declare module 'fastify' {
  interface FastifyInstance {
    /** Storage, settings, time, models and links shared by every route plugin. */
    services: Services;
    /** The request meter: rate budgets, credentials and the token cache (see `auth/hook.ts`). */
    meter: RequestMeter;
  }
}

/** Options of {@link buildApp}. Everything but `config` has a production default. */
export interface BuildOptions {
  config: Config;
  clock?: Clock;
  models?: ModelProvider;
  /**
   * Trigger and action kinds beside the built-in ones and the pieces', through the same registry,
   * validation, catalogue and step tests (`engine/src/kinds/kind.ts`): a host's own kinds, or a
   * test's fixture kind.
   */
  kinds?: readonly KindDeclaration[];
  /**
   * Told when the PostgreSQL database is led by another server: a standby (`TASKSPACE_STANDBY=1`,
   * `standby` true) waits for it to end; any other process follows it (platform/leadership.ts).
   */
  onLockHeld?(database: string, holder: string | undefined, standby: boolean): void;
  /**
   * Called if the PostgreSQL server lock is lost while the app runs (platform/db/postgres/server-lock.ts).
   * Default: log it and close the app, so that it stops working on a database another server may
   * now hold. `npm start` exits the process instead.
   */
  onLockLost?(error: ServerLockLostError): void;
  /** Told at start when the secret key does not open the secrets already stored (see `secretKeyOpensStored`). */
  onKeyMismatch?(message: string): void;
}

/** A built, not yet listening, server. */
export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  /** The store the app runs on; `storage.db` is the SQLite connection in SQLite mode. */
  storage: Storage;
  /** Set on the first start of a fresh data directory: the owner and their token (show it once). */
  bootstrap: BootstrapResult | undefined;
}

/**
 * Builds the Fastify app: opens the configured store (platform/db/storage.ts: the SQLite file in
 * `config.dataDir`, or PostgreSQL with `DATABASE_URL`) and brings its schema up to date,
 * bootstraps the owner on first start, and registers every route plugin. No side effects at
 * import; nothing listens until the caller calls `app.listen`.
 */
export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // SQLite: one server per data directory, a second one is refused before it touches anything.
  // PostgreSQL: any number of servers share the database (platform/db/storage.ts).
  let reportPoolError: (error: Error) => void = () => undefined;
  let lockLost: (error: ServerLockLostError) => void = () => undefined;
  let stalledLeader: (holder: string) => void = () => undefined;
  const storage = await openStorage(config, {
    onPoolError: (error) => reportPoolError(error),
    onLockHeld: options.onLockHeld,
    onLockLost: (error) => lockLost(error),
    onStalledLeader: (holder) => stalledLeader(holder),
  });
  const links = new PublicLinks(config.publicUrl);
  const { store } = storage;
  const signals = new Signals();
  let reportLiveError: (error: unknown) => void = () => undefined;
  const services: Services = {
    store,
    config,
    clock,
    models: options.models ?? createModelProvider(config),
    links,
    signals,
    addressPolicy: policyFromConfig(config),
    secretBox: new SecretBox(config),
    taskPages: new TaskPageCache(),
    inputs: new InputValidator(),
    writes: new GroupCommit(store),
    workNotifier: config.databaseUrl ? new WorkNotifier(store) : undefined,
    leadership: storage.leadership,
    workerId: storage.workerId,
    live: new LiveHub({
      store,
      clock,
      signals,
      presenceHeartbeatMs: config.presenceHeartbeatMs,
      onError: (error) => reportLiveError(error),
    }),
  };
  let boot: BootstrapResult | undefined;
  try {
    boot = await store.run(bootstrap(store.sql, clock.now(), config.bootstrapToken, config.accounts.bootstrapPassword));
  } catch (error) {
    await storage.close();
    throw error;
  }
  const meter = new RequestMeter(services);
  try {
    await meter.counters.load();
  } catch (error) {
    await storage.close();
    throw error;
  }

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: { req: serializeRequest },
          },
    bodyLimit: config.bodyLimitBytes,
    // Which proxies may name the client in X-Forwarded-For (TASKSPACE_TRUST_PROXY): request.ip
    // is the address the sign-in throttle and the hourly limit count by.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A client that stops sending mid-request is answered 408 and cut off (docs "Configuration").
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 2)) },
    // close() ends keep-alive connections too, so a stop never waits out an idle client.
    forceCloseConnections: true,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // removeAdditional: false makes `additionalProperties: false` reject unknown body fields (400, reason unknown_field) instead of silently dropping them.
    ajv: ROUTE_AJV,
    ...envelopeForFrameworkErrors(meter),
  });
  app.decorate('services', services);
  app.decorate('meter', meter);
  app.decorateRequest('actor', null as never);
  await app.register(cookie);
  installErrorHandling(app);
  if (config.role === 'worker') refuseApiRequests(app);
  installRequestMetering(app, meter);
  installJsonBodyParser(app, config.jsonMaxDepth);
  refuseTextBodies(app);
  app.addSchema(errorEnvelope);
  reportLiveError = (error) => app.log.warn({ err: error }, 'live updates: a look for changes failed; the next one tries again');
  reportPoolError = (error) => app.log.error({ err: error }, 'an idle PostgreSQL connection failed; the pool opens another when needed');
  stalledLeader = (holder) =>
    app.log.warn(
      { holder },
      'the leading server stalled past TASKSPACE_LEADER_LEASE_MS: its connections were ended; this server takes the lead over',
    );
  lockLost =
    options.onLockLost ??
    ((error) => {
      app.log.fatal({ err: error }, 'closing: the PostgreSQL server lock was lost');
      app.close().catch((closeError: unknown) => app.log.error({ err: closeError }, 'closing after the lock was lost failed'));
    });
  if (!(await store.run(secretKeyOpensStored(store.sql, services.secretBox)))) {
    const message =
      'the webhook secret key does not open the secrets stored in the database: deliveries and automation secrets will fail. ' +
      "Give every server the key the secrets were sealed with (TASKSPACE_WEBHOOKS_SECRET_KEY, or the data directory's webhook-secrets.key)";
    app.log.error(message);
    options.onKeyMismatch?.(message);
  }
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') links.setListening(config.host, address.port);
    await storage.start(app.log);
  });
  app.addHook('onClose', async () => {
    await storage.close();
  });
  // Registered before the workers' hooks, so a take-over while they stop starts nothing.
  app.addHook('preClose', async () => services.leadership.stop());
  installEventWorkers(app, services);
  installAutomations(app, services, options.kinds);
  installRunRetention(app, services);
  installTrashRetention(app, services);
  installBackupSchedule(app, services);
  installMail(app, services);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Taskspace API', version: '1.0.0', description: 'Projects, tasks, agents, folders, media and webhooks.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await installApiDocs(app);
  // Reported, not counted: probes may call it more often than the anonymous budget allows.
  // `leader`: whether this process does the work done once per database (platform/leadership.ts).
  app.get('/healthz', { schema: { hide: true }, config: { rateLimit: 'uncounted' } }, async () => ({
    ok: true,
    role: config.role,
    leader: services.leadership.leading,
  }));

  await registerRoutes(app);
  return { app, services, storage, bootstrap: boot };
}

/**
 * A worker process (`TASKSPACE_ROLE=worker`) answers only `GET /healthz`; anything else is
 * 404 NOT_FOUND naming the processes that serve the API.
 */
function refuseApiRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.url === '/healthz' || request.url.startsWith('/healthz?')) return;
    throw new ServiceError(
      404,
      'NOT_FOUND',
      'this process does background work only (TASKSPACE_ROLE=worker); send requests to a process with TASKSPACE_ROLE=all or api',
    );
  });
}

/**
 * Fastify's `trustProxy` for {@link Config.trustProxy}. Fastify 5 ignores a bare hop count (it
 * trusts nothing then), so `n` hops become a function trusting the `n` addresses nearest to the
 * server whatever they are, as the setting documents (docs "Configuration").
 */
function fastifyTrustProxy(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  if (value === 0) return false;
  return (_address, hop) => hop < value;
}
