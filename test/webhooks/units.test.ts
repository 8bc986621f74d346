import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../server/src/config';
import { deliveryBody } from '../../server/src/modules/webhooks/delivery-worker';
import { WorkerLoop } from '../../server/src/platform/worker-loop';
import { backoffMs, parseRetryAfter } from '@taskspace/engine';
import { deliveryDelayMs, verdictForStatus } from '../../server/src/modules/webhooks/delivery-verdicts';
import { SecretBox, SecretUnreadableError } from '../../server/src/platform/secret-box';
import { signPayload, verifySignature } from '../../server/src/modules/webhooks/signature';
import { tempDataDir } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { storeEnv } from '../helpers/test-store';

/** Pure parts of events and webhooks: signature check, retry schedule, secret sealing, body bytes. */

describe('verifySignature', () => {
  const secret = 'whsec_test';
  const body = '{"id":"e1","type":"task.due","payload":{"x":"é"}}';
  const good = 'sha256=' + createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex');

  test('accepts the HMAC of the raw bytes, as a string or bytes, in either hex case', () => {
    expect(signPayload(body, secret)).toBe(good);
    expect(verifySignature(body, good, secret)).toBe(true);
    expect(verifySignature(Buffer.from(body), good, secret)).toBe(true);
    expect(verifySignature(new Uint8Array(Buffer.from(body)), [good], secret)).toBe(true);
    expect(verifySignature(body, good.toUpperCase().replace('SHA256=', 'sha256='), secret)).toBe(true);
  });

  test.each([
    ['a different body', body + ' ', good, secret],
    ['a different secret', body, good, 'whsec_other'],
    ['a missing header', body, undefined, secret],
    ['an empty header', body, '', secret],
    ['no prefix', body, good.slice(7), secret],
    ['another algorithm', body, good.replace('sha256', 'sha1'), secret],
    ['a truncated digest', body, good.slice(0, -2), secret],
    ['non-hex digits', body, good.slice(0, -1) + 'z', secret],
    ['an empty secret', body, 'sha256=' + createHmac('sha256', '').update(body).digest('hex'), ''],
  ])('rejects %s', (_what, raw, header, key) => {
    expect(verifySignature(raw, header, key)).toBe(false);
  });

  test('the module imports only node:crypto, so receivers can copy it', () => {
    const source = fs.readFileSync(path.resolve(__dirname, '../../server/src/modules/webhooks/signature.ts'), 'utf8');
    expect([...source.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['node:crypto']);
  });
});

describe('the retry schedule', () => {
  const settings = { maxAttempts: 10, retryBaseMs: 30000, retryMaxMs: 3600000 };

  test('2xx succeeds; 408, 429 and 5xx retry; everything else fails', () => {
    expect([200, 201, 204, 299].map(verdictForStatus)).toEqual(new Array(4).fill('succeeded'));
    expect([408, 429, 500, 502, 503, 599].map(verdictForStatus)).toEqual(new Array(6).fill('retry'));
    expect([100, 301, 302, 400, 401, 403, 404, 410, 422].map(verdictForStatus)).toEqual(new Array(9).fill('failed'));
  });

  test('deliveries double from the base with equal jitter, capped at the maximum', () => {
    // random 0 takes the full ceiling; values near 1 take half of it.
    expect([1, 2, 3, 4].map((n) => deliveryDelayMs(n, settings, 0))).toEqual([30000, 60000, 120000, 240000]);
    expect([1, 2, 3, 4].map((n) => deliveryDelayMs(n, settings, 0.999999))).toEqual([15000, 30000, 60000, 120000]);
    expect(deliveryDelayMs(9, settings, 0)).toBe(3600000);
    expect(deliveryDelayMs(60, settings, 0.5)).toBe(2700000);
  });

  test('automation steps use the same backoff: any factor, jitter within [ceiling/2, ceiling]', () => {
    const policy = { initialDelayMs: 1000, factor: 3, maxDelayMs: 60000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(policy, n, undefined, 0))).toEqual([1000, 3000, 9000, 27000, 60000]);
    for (const random of [0, 0.25, 0.5, 0.75, 0.999999]) {
      const delay = backoffMs(policy, 3, undefined, random);
      expect(delay).toBeGreaterThanOrEqual(4500);
      expect(delay).toBeLessThanOrEqual(9000);
    }
  });

  test('Retry-After raises the wait, never past the maximum', () => {
    expect(deliveryDelayMs(1, settings, 0, 90000)).toBe(90000);
    expect(deliveryDelayMs(1, settings, 0, 10 * 3600000)).toBe(3600000);
    expect(parseRetryAfter('120', 0)).toBe(120000);
    expect(parseRetryAfter(' 7 ', 0)).toBe(7000);
    expect(parseRetryAfter(new Date(60000).toUTCString(), 0)).toBe(60000);
    expect(parseRetryAfter(new Date(0).toUTCString(), 60000)).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter('-5', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});

describe('secret sealing', () => {
  test('round-trips under the key file, and a different key cannot open it', () => {
    const dataDir = tempDataDir();
    const config = loadConfig({ TASKSPACE_DATA_DIR: dataDir });
    const box = new SecretBox(config);
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(new SecretBox(config).open(sealed)).toBe('whsec_abc');
    expect(fs.statSync(path.join(dataDir, 'webhook-secrets.key')).mode & 0o777).toBe(0o600);
    const other = loadConfig({ TASKSPACE_DATA_DIR: dataDir, TASKSPACE_WEBHOOKS_SECRET_KEY: 'k'.repeat(32) });
    const otherBox = new SecretBox(other);
    expect(() => otherBox.open(sealed)).toThrow(SecretUnreadableError);
    expect(otherBox.open(otherBox.seal('x'))).toBe('x');
  });

  test('a short configured key is a configuration error', () => {
    expect(() => loadConfig({ TASKSPACE_WEBHOOKS_SECRET_KEY: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES: '10.0.0.0/99' })).toThrow(/CIDR/);
    expect(loadConfig({ TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES: '10.0.0.0/8, ::1' }).webhooks.allowAddresses).toEqual(['10.0.0.0/8', '::1']);
  });
});

test('the delivery body embeds the stored payload bytes unchanged', () => {
  const body = deliveryBody({ id: 'e1', type: 'task.due', workspaceId: 'w1', createdAt: 0, payloadJson: '{"b":1,"a":"x"}' });
  expect(body).toBe('{"id":"e1","type":"task.due","workspaceId":"w1","timestamp":"1970-01-01T00:00:00.000Z","payload":{"b":1,"a":"x"}}');
  expect(JSON.parse(body).payload).toEqual({ b: 1, a: 'x' });
});

/** An app (not listening: no worker runs) keeping logs 30 days, with a clock the test moves and one signed webhook of the owner. */
async function retentionApp() {
  const { buildApp } = await import('../../server/src/app');
  const { actorForToken } = await import('../../server/src/auth/tokens');
  const { registerWebhook } = await import('../../server/src/modules/webhooks/service');
  const clock = { at: Date.UTC(2030, 0, 1), now: () => clock.at };
  const dataDir = tempDataDir();
  const config = loadConfig({
    TASKSPACE_DATA_DIR: dataDir,
    ...storeEnv(dataDir),
    TASKSPACE_LOG_LEVEL: 'silent',
    TASKSPACE_BOOTSTRAP_TOKEN: 'tsk_retention',
    TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS: '30',
  });
  const built = await buildApp({ config, clock });
  const actor = (await built.services.store.run(actorForToken(built.services.store.sql, 'tsk_retention')))!;
  await built.services.store.run(
    registerWebhook(built.services, actor, { targetUrl: 'https://hooks.example.com/r', events: ['task.due'] }),
  );
  const hookId = (await dbOf({ built }).value<string>('SELECT id FROM webhooks'))!;
  return { built, clock, hookId };
}

describe('log retention', () => {
  test('deletes finished deliveries older than the retention, never pending ones', async () => {
    const { pruneExpired } = await import('../../server/src/modules/events/retention');
    const { built, clock, hookId } = await retentionApp();
    const now = clock.at;
    try {
      const svc = built.services;
      const db = dbOf({ built });
      const insert = (...values: unknown[]) =>
        db.run(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_seq, event_type, status, attempts, next_attempt_at, created_at, completed_at)
           VALUES (?, ?, 1, 'task.due', ?, 1, ?, ?, ?)`,
          ...values,
        );
      const day = 86400000;
      await insert('old-done', hookId, 'succeeded', null, now - 40 * day, now - 40 * day);
      await insert('old-failed', hookId, 'failed', null, now - 31 * day, now - 31 * day);
      await insert('recent', hookId, 'succeeded', null, now - 2 * day, now - 2 * day);
      await insert('old-pending', hookId, 'pending', now, now - 40 * day, null);
      await db.run(
        'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code) VALUES (?, 1, ?, 5, 200)',
        'old-done',
        now - 40 * day,
      );
      expect(await svc.store.run(pruneExpired(svc))).toBe(2);
      const left = (await db.all<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id')).map((r) => r.id);
      expect(left).toEqual(['old-pending', 'recent']);
      expect(await db.get('SELECT count(*) AS n FROM webhook_attempts')).toEqual({ n: 0 });
      clock.at += 29 * day;
      expect(await svc.store.run(pruneExpired(svc))).toBe(1);
    } finally {
      await built.app.close();
    }
  });
});

describe('outbox retention', () => {
  test('deletes events older than the retention once every reader has passed them and no delivery refers to them', async () => {
    const { pruneExpired } = await import('../../server/src/modules/events/retention');
    const { writeCursor } = await import('../../server/src/modules/events/cursors');
    const { built, clock, hookId } = await retentionApp();
    const now = clock.at;
    try {
      const { store } = built.services;
      const db = dbOf({ built });
      const day = 86400000;
      /** Appends an event and returns its seq. */
      const add = async (id: string, createdAt: number): Promise<number> => {
        await db.run(
          `INSERT INTO events (id, type, workspace_id, payload_json, depth, created_at) VALUES (?, 'task.due', 'w', '{}', 0, ?)`,
          id,
          createdAt,
        );
        return (await db.value<number>('SELECT seq FROM events WHERE id = ?', id))!;
      };
      const handled = await add('handled', now - 40 * day);
      const delivered = await add('delivered', now - 40 * day);
      const unread = await add('unread', now - 40 * day);
      const recent = await add('recent', now - 2 * day);
      await db.run(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_seq, event_type, status, attempts, next_attempt_at, created_at)
         VALUES ('d1', ?, ?, 'task.due', 'pending', 0, ?, ?)`,
        hookId,
        delivered,
        now,
        now - 40 * day,
      );
      // The dispatcher has passed `delivered`, the automation consumer `unread` too.
      await store.run(writeCursor(store.sql, 'webhooks', delivered));
      await store.run(writeCursor(store.sql, 'automations', unread));
      await store.run(writeCursor(store.sql, 'mail', unread));
      const ids = async () =>
        (await db.all<{ id: string }>("SELECT id FROM events WHERE id IN ('handled', 'delivered', 'unread', 'recent') ORDER BY seq")).map(
          (r) => r.id,
        );

      expect(await built.services.store.run(pruneExpired(built.services))).toBe(1);
      expect(await ids()).toEqual(['delivered', 'unread', 'recent']);
      expect(handled).toBeLessThan(delivered);

      // Its delivery finished long ago: the delivery goes, then the event it held.
      await db.run("UPDATE webhook_deliveries SET status = 'succeeded', completed_at = ? WHERE id = 'd1'", now - 31 * day);
      expect(await built.services.store.run(pruneExpired(built.services))).toBe(2);
      expect(await ids()).toEqual(['unread', 'recent']);

      await store.run(writeCursor(store.sql, 'webhooks', unread));
      expect(await built.services.store.run(pruneExpired(built.services))).toBe(1);
      expect(await ids()).toEqual(['recent']);
      // Old enough, but not yet read by either reader; then read by both.
      clock.at += 29 * day;
      expect(await built.services.store.run(pruneExpired(built.services))).toBe(0);
      await store.run(writeCursor(store.sql, 'webhooks', recent));
      await store.run(writeCursor(store.sql, 'automations', recent));
      await store.run(writeCursor(store.sql, 'mail', recent));
      expect(await built.services.store.run(pruneExpired(built.services))).toBe(1);
      expect(await ids()).toEqual([]);
    } finally {
      await built.app.close();
    }
  });
});

describe('WorkerLoop', () => {
  const log = { error: jest.fn(), warn: jest.fn() };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test('an async step never overlaps itself; a wake-up during it runs one more step; stop waits for it', async () => {
    let active = 0;
    let maxActive = 0;
    let steps = 0;
    let release: (() => void) | undefined;
    const loop = new WorkerLoop(
      'test',
      async () => {
        steps++;
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((resolve) => (release = resolve));
        active--;
        return 60_000;
      },
      log,
    );
    loop.start();
    await tick();
    expect(steps).toBe(1);
    loop.wake();
    loop.wake();
    await tick();
    expect(steps).toBe(1);
    release!();
    await tick();
    await tick();
    expect(steps).toBe(2);
    const stopped = loop.stop();
    let done = false;
    void stopped.then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    release!();
    await stopped;
    expect(maxActive).toBe(1);
    expect(steps).toBe(2);
  });

  test('a rejecting step is logged and retried', async () => {
    const errors = jest.fn();
    let steps = 0;
    const loop = new WorkerLoop(
      'failing',
      async () => {
        steps++;
        throw new Error('boom');
      },
      { error: errors, warn: jest.fn() },
      1,
    );
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.stop();
    expect(steps).toBeGreaterThan(1);
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ worker: 'failing' }), 'failing failed; retrying');
  });
});
