#!/usr/bin/env node
/**
 * `npm run test:n8n`: proves the package in a real n8n.
 *
 * 1. Installs n8n 1.123.81 into the per-user cache of install-n8n.mjs (once), builds this package, packs
 *    packages/n8n-nodes-taskspace (`package-stage.mjs`) and loads the unpacked tarball through N8N_CUSTOM_EXTENSIONS.
 * 2. Starts the Taskspace service (`server/dist/main.js`, own data folder, http loopback
 *    webhooks allowed with TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1).
 * 3. Imports the credentials and a workflow chaining Project → Task → Agent → Media, runs it
 *    with `n8n execute`, and checks the service's state through its API.
 * 4. Imports and activates a Taskspace Trigger workflow, runs `n8n start`, assigns a task in
 *    the service, and checks that exactly one n8n execution with the payload follows and
 *    that a forged delivery is rejected with 401 without an execution.
 * 5. Connects the OAuth2 credential as a person would: registers n8n as an OAuth app, creates the
 *    credential in n8n, opens n8n's authorization URL signed in to Taskspace, approves on the
 *    consent page and follows the redirect to n8n's callback. Access tokens live 5 s here
 *    (TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS): it waits until the one n8n holds expired and checks
 *    that the editor's list search and then a run with
 *    `n8n execute` each renew it and store the new tokens; finally revokes n8n's grant and checks
 *    that a run fails with the reconnect error and creates nothing.
 * Prints the duration of each phase. Exit code 0 when everything passed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createDecipheriv, createHash, createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { ensureN8n } from './install-n8n.mjs';
import { pack, preparePackage, unpack } from './package-stage.mjs';
import { chainWorkflow, credentialsFile, oauthWorkflow, routingWorkflow, triggerWorkflow } from './workflows.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));
const cache = path.join(root, '.n8n-host');
const OWNER_TOKEN = 'tsk_n8n_host_owner_token_0123456789';
const OWNER_PASSWORD = 'taskspace host owner password';
/** Lifetime of an OAuth access token in this run, in seconds: short, so that n8n has to renew them. */
const ACCESS_TOKEN_SECONDS = 5;
const started = Date.now();
const timings = [];
const children = [];

function log(message) {
  console.log(`[test:n8n ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

async function phase(name, fn) {
  const t0 = Date.now();
  log(`${name}...`);
  const result = await fn();
  timings.push([name, Date.now() - t0]);
  return result;
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  log(`ok - ${message}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, fn, timeoutMs = 60000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** JSON request to the service (or any URL). */
async function http(method, url, { token, body, headers = {}, raw } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/** Spawns a long-running process, keeping its output for diagnostics. */
function background(command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const proc = { child, output: () => output, name: path.basename(args[0] ?? command) };
  children.push(proc);
  return proc;
}

async function stop(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15000);
  await exited;
  clearTimeout(timer);
}

function n8nCommand(n8nBin, env, args) {
  try {
    return execFileSync(process.execPath, [n8nBin, ...args], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    error.message = `${error.message}\n${String(error.stdout ?? '').slice(-3000)}\n${String(error.stderr ?? '').slice(-3000)}`;
    throw error;
  }
}

async function main() {
  const n8nBin = await phase('install n8n (cached after the first run)', () => ensureN8n({ log }));

  const extension = await phase('build, pack and unpack the package', () => {
    execFileSync(path.join(root, 'node_modules', '.bin', 'n8n-node'), ['build'], { cwd: root, stdio: 'ignore' });
    const { tarball } = pack(preparePackage());
    return unpack(tarball, path.join(cache, 'extension'));
  });

  const run = path.join(cache, `run-${Date.now()}`);
  fs.mkdirSync(run, { recursive: true });

  const service = await phase('start the Taskspace service', async () => {
    execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-b', 'server'], { cwd: root, stdio: 'inherit' });
    const proc = background(process.execPath, [path.join(root, 'server', 'dist', 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        TASKSPACE_DATA_DIR: path.join(run, 'taskspace-data'),
        TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
        TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD,
        TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
        TASKSPACE_WEBHOOKS_POLL_MS: '100',
        TASKSPACE_LOG_LEVEL: 'warn',
        // OAuth access tokens expire for real within the run, so n8n must renew them.
        TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS),
      },
    });
    const url = await until('the service to listen', () => /listening on (http:\/\/\S+)/.exec(proc.output())?.[1], 30000, 100);
    return { ...proc, url };
  });
  const api = (method, p, body) => http(method, service.url + p, { token: OWNER_TOKEN, body });
  const workspaceId = (await api('GET', '/api/v1/workspaces')).body.items[0].id;

  const n8nPort = await freePort();
  const n8nEnv = {
    ...process.env,
    N8N_USER_FOLDER: path.join(run, 'n8n-user'),
    N8N_CUSTOM_EXTENSIONS: extension,
    N8N_PORT: String(n8nPort),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    WEBHOOK_URL: `http://127.0.0.1:${n8nPort}/`,
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_ENCRYPTION_KEY: 'taskspace-n8n-host-test-key-0123456789',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_LOG_LEVEL: 'warn',
    DB_SQLITE_POOL_SIZE: '2',
  };

  await phase('import credentials and the chain workflow, run it with `n8n execute`', () => {
    const files = {
      credentials: path.join(run, 'credentials.json'),
      chain: path.join(run, 'chain.json'),
    };
    fs.writeFileSync(files.credentials, JSON.stringify(credentialsFile({ baseUrl: service.url, token: OWNER_TOKEN })));
    fs.writeFileSync(files.chain, JSON.stringify(chainWorkflow({ id: 'taskspaceChain01', workspaceId })));
    n8nCommand(n8nBin, n8nEnv, ['import:credentials', `--input=${files.credentials}`]);
    n8nCommand(n8nBin, n8nEnv, ['import:workflow', `--input=${files.chain}`]);
    let output;
    try {
      output = n8nCommand(n8nBin, n8nEnv, ['execute', '--id=taskspaceChain01', '--rawOutput']);
    } catch (error) {
      throw new Error(`n8n execute failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    }
    check(!/"error"\s*:|Execution was NOT successful|ERROR/i.test(output), 'n8n execute ran the chain without errors');
  });

  await phase('check the service after the chain', async () => {
    const projects = (await api('GET', '/api/v1/me/projects?limit=500')).body.items;
    const project = projects.find((p) => p.name === 'n8n chain');
    check(project, 'the project made by n8n exists');
    const tasks = (await api('GET', `/api/v1/projects/${project.id}/tasks`)).body.items;
    check(
      JSON.stringify(tasks.map((t) => t.text)) === JSON.stringify(['Seed task', 'Made by n8n in n8n chain']),
      'the task was appended with the expression resolved',
    );
    const note = (await api('GET', `/api/v1/projects/${project.id}/tasks/${tasks[1].id}/note`)).body.item;
    check(note?.value === 'Written by the n8n host test', 'the note is set on that task');
    const agents = (await api('GET', `/api/v1/folders/${workspaceId}/agents?limit=100`)).body.items;
    const agent = agents.find((a) => a.name === 'n8n agent');
    check(agent && agent.knowledge.projects.includes(project.id), 'the agent exists with the project in its knowledge');
    const convos = (await api('GET', `/api/v1/agents/${agent.id}/convos/`)).body.items;
    check(convos.length === 1, 'the command ran once (one conversation)');
    const convo = (await api('GET', `/api/v1/agents/${agent.id}/convos/${convos[0].id}`)).body.item;
    const prompt = convo.data.messages.find((m) => m.role === 'user')?.content ?? '';
    check(
      prompt.includes('Summarize: Made by n8n in n8n chain'),
      'the [[input]] placeholder set in n8n was filled with the input by the service',
    );
    const media = (await api('GET', `/api/v1/folders/${workspaceId}/medias?limit=100`)).body.items;
    check(
      media.some((m) => m.name === 'conversation.json' && m.size > 0),
      'the file made from the conversation was uploaded',
    );
  });

  await phase('error output and comment paging: run the routing workflow, check the service', async () => {
    const project = (
      await api('POST', `/api/v1/workspaces/${workspaceId}/projects`, {
        contentType: 'text/markdown',
        content: '# n8n routing\n- good\n- bad',
      })
    ).body.item;
    const [good] = (await api('GET', `/api/v1/projects/${project.id}/tasks`)).body.items;
    for (let n = 1; n <= 25; n++) await api('POST', `/api/v1/projects/${project.id}/tasks/${good.id}/comments`, { text: `comment ${n}` });
    const file = path.join(run, 'routing.json');
    fs.writeFileSync(file, JSON.stringify(routingWorkflow({ id: 'taskspaceRouting1', projectId: project.id, taskId: good.id })));
    n8nCommand(n8nBin, n8nEnv, ['import:workflow', `--input=${file}`]);
    try {
      n8nCommand(n8nBin, n8nEnv, ['execute', '--id=taskspaceRouting1', '--rawOutput']);
    } catch (error) {
      throw new Error(`n8n execute failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    }
    const texts = (await api('GET', `/api/v1/projects/${project.id}/tasks`)).body.items.map((t) => t.text).sort();
    check(texts.includes('routed ok: good') && !texts.includes('routed ok: bad'), 'the item that succeeded went to the main output');
    check(
      texts.filter((t) => t.startsWith('routed error')).length === 1,
      'the failed item went to the error output (Continue using error output)',
    );
    check(
      texts.includes('routed error: bad NOT_FOUND 404'),
      `the error item holds the input item merged with error.code and error.httpCode (${JSON.stringify(texts.filter((t) => t.startsWith('routed error')))})`,
    );
    check(texts.includes('comments: 25'), 'Comment → Get Many with Return All read all 25 comments (past the page of 20)');
  });

  const webhookId = randomUUID();
  const n8n = await phase('import and activate the trigger workflow, `n8n start`', async () => {
    const file = path.join(run, 'trigger.json');
    fs.writeFileSync(file, JSON.stringify(triggerWorkflow({ id: 'taskspaceTrig001', webhookId })));
    n8nCommand(n8nBin, n8nEnv, ['import:workflow', `--input=${file}`]);
    n8nCommand(n8nBin, n8nEnv, ['update:workflow', '--id=taskspaceTrig001', '--active=true']);
    const proc = background(process.execPath, [n8nBin, 'start'], { cwd: root, env: n8nEnv });
    await until(
      'n8n to answer /healthz',
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`n8n exited:\n${proc.output()}`);
        try {
          return (await fetch(`http://127.0.0.1:${n8nPort}/healthz`)).ok;
        } catch {
          return false;
        }
      },
      120000,
      500,
    );
    await until(
      'the trigger to register its webhook',
      async () => {
        const hooks = (await api('GET', '/api/v2/webhooks')).body.items ?? [];
        return hooks.find((h) => h.url.includes(webhookId));
      },
      60000,
      500,
    );
    return proc;
  });

  const db = () => {
    const Database = require('better-sqlite3');
    return new Database(path.join(n8nEnv.N8N_USER_FOLDER, '.n8n', 'database.sqlite'), { readonly: true, fileMustExist: true });
  };
  const executions = () => {
    const conn = db();
    try {
      return conn
        .prepare(
          "SELECT e.id, e.status, e.mode, d.data FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = 'taskspaceTrig001' ORDER BY e.id",
        )
        .all();
    } finally {
      conn.close();
    }
  };

  await phase('assign a task: one execution with the payload; a forged delivery: 401', async () => {
    const hook = (await api('GET', '/api/v2/webhooks')).body.items.find((h) => h.url.includes(webhookId));
    check(
      JSON.stringify(hook.events) === '["task.assigned"]' && hook.spaceIds.length === 0,
      'registered for task.assigned in every workspace',
    );
    const me = (await api('GET', '/api/v1/me')).body.item;
    const project = (
      await api('POST', '/api/v1/projects', {
        folderId: workspaceId,
        contentType: 'text/markdown',
        content: '# Trigger test\n- Trigger me\n- Witness me',
      })
    ).body.item;
    const [task, witness] = (await api('GET', `/api/v1/projects/${project.id}/tasks`)).body.items;
    await api('PUT', `/api/v1/projects/${project.id}/tasks/${task.id}/assignees`, { handles: [me.handle] });
    const runs = await until(
      'an n8n execution',
      () => {
        const rows = executions().filter((r) => r.status === 'success');
        return rows.length > 0 ? rows : undefined;
      },
      60000,
      500,
    ).catch(async (error) => {
      const log = (await api('GET', `/api/v2/webhooks/${encodeURIComponent(hook.id)}/deliveries`)).body;
      console.error('deliveries:', JSON.stringify(log, null, 1));
      console.error('executions:', JSON.stringify(executions().map((r) => ({ ...r, data: r.data?.slice(0, 2000) }))));
      throw error;
    });
    check(
      runs[0].data.includes('Trigger me') && runs[0].data.includes('task.assigned') && runs[0].data.includes(task.id),
      'the execution carries the payload, the event name and the task',
    );
    const deliveries = (await api('GET', `/api/v2/webhooks/${encodeURIComponent(hook.id)}/deliveries`)).body.items;
    check(
      deliveries.some((d) => d.status === 'succeeded' && d.lastStatusCode === 200),
      'the service logged a 200 delivery',
    );

    const body = JSON.stringify({
      id: 'forged',
      type: 'task.assigned',
      workspaceId,
      timestamp: new Date().toISOString(),
      payload: { nodeText: 'forged' },
    });
    const forged = await http('POST', hook.url, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-service-event': 'task.assigned',
        'x-service-delivery': 'forged',
        'x-service-signature': `sha256=${createHmac('sha256', 'wrong-secret').update(body).digest('hex')}`,
      },
    });
    check(forged.status === 401, `a forged delivery is rejected (HTTP ${forged.status})`);
    const unsigned = await http('POST', hook.url, { raw: body, headers: { 'content-type': 'application/json' } });
    check(unsigned.status === 401, `an unsigned delivery is rejected (HTTP ${unsigned.status})`);
    // Witness: a second, later assignment. Once its execution exists, a repeated execution of the
    // first delivery or one started by the rejected requests would have shown up too.
    await api('PUT', `/api/v1/projects/${project.id}/tasks/${witness.id}/assignees`, { handles: [me.handle] });
    await until(
      'the witness execution',
      () => executions().some((r) => r.status === 'success' && r.data?.includes('Witness me')),
      60000,
      250,
    );
    const all = executions();
    check(
      all.length === 2 && all[0].data?.includes('Trigger me') && all[1].data?.includes('Witness me'),
      `exactly one execution for the first assignment, then the witness (${all.length} in all)`,
    );
    check(!all.some((r) => r.data?.includes('forged')), 'no execution started for the forged or unsigned deliveries');
  });

  const n8nCookie = await phase('list search in the n8n editor: a project past the first page is found on the service', async () => {
    for (let n = 0; n < 120; n++)
      await api('POST', `/api/v1/workspaces/${workspaceId}/projects`, {
        contentType: 'text/plain',
        content: n === 119 ? 'Needle in n8n' : `Hay ${n}`,
      });
    const n8nUrl = `http://127.0.0.1:${n8nPort}`;
    const browser = { 'browser-id': 'taskspace-host-test' };
    const setup = await fetch(`${n8nUrl}/rest/owner/setup`, {
      method: 'POST',
      headers: { ...browser, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@taskspace.test', firstName: 'Test', lastName: 'Owner', password: 'Taskspace-Host-1' }),
    });
    check(setup.ok, `the n8n owner is set up (HTTP ${setup.status})`);
    const cookie = (setup.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const res = await http('POST', `${n8nUrl}/rest/dynamic-node-parameters/resource-locator-results`, {
      headers: { ...browser, cookie },
      body: {
        path: 'parameters.projectId',
        nodeTypeAndVersion: { name: 'CUSTOM.taskspaceProject', version: 1 },
        methodName: 'searchProjects',
        currentNodeParameters: { authentication: 'accessToken', resource: 'project', operation: 'get' },
        credentials: { taskspaceApi: { id: 'taskspaceHostCred01', name: 'Taskspace (test)' } },
        filter: 'needle',
      },
    });
    const names = (res.body?.data?.results ?? []).map((r) => r.name);
    check(
      JSON.stringify(names) === '["Needle in n8n"]',
      `the editor's list search finds the project on the second page (HTTP ${res.status}: ${JSON.stringify(names)})`,
    );
    return cookie;
  });

  const oauthCredential = await phase(
    'OAuth2 credential: register n8n, approve on the consent page, follow the redirect to n8n',
    async () => {
      const n8nUrl = `http://127.0.0.1:${n8nPort}`;
      const browser = { 'browser-id': 'taskspace-host-test', cookie: n8nCookie };
      const callback = `${n8nUrl}/rest/oauth2-credential/callback`;
      const registered = await api('POST', `/api/v1/workspaces/${workspaceId}/oauth-clients`, {
        name: 'n8n',
        redirectUris: [callback],
        type: 'confidential',
      });
      check(
        registered.status === 200 && registered.body.item.clientSecret,
        `n8n is registered as a confidential OAuth app (HTTP ${registered.status})`,
      );
      const { id: clientId, clientSecret } = registered.body.item;
      const created = await http('POST', `${n8nUrl}/rest/credentials`, {
        headers: browser,
        body: { name: 'Taskspace (OAuth2)', type: 'taskspaceOAuth2Api', data: { baseUrl: service.url, clientId, clientSecret } },
      });
      check(created.status === 200 && created.body.data?.id, `the OAuth2 credential is created in n8n (HTTP ${created.status})`);
      const credential = { id: created.body.data.id, name: 'Taskspace (OAuth2)' };
      const auth = await http('GET', `${n8nUrl}/rest/oauth2-credential/auth?id=${encodeURIComponent(credential.id)}`, { headers: browser });
      const authorizeUrl = new URL(auth.body?.data ?? 'http://invalid/');
      check(
        authorizeUrl.href.startsWith(`${service.url}/oauth/authorize?`) && authorizeUrl.searchParams.get('redirect_uri') === callback,
        `n8n sends the browser to Taskspace's /oauth/authorize with its callback (${authorizeUrl.href.slice(0, 120)})`,
      );

      // The browser: sign in to Taskspace, open the authorization URL, approve on the consent page.
      const signIn = await fetch(`${service.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'owner', password: OWNER_PASSWORD }),
      });
      const session = (signIn.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('taskspace_session='));
      check(signIn.ok && session, `signed in to Taskspace (HTTP ${signIn.status})`);
      const consent = await fetch(authorizeUrl, { headers: { cookie: session }, redirect: 'manual' });
      const html = await consent.text();
      check(
        consent.status === 200 && html.includes('Allow n8n?') && html.includes('webhooks'),
        `the consent page names n8n and the scopes (HTTP ${consent.status})`,
      );
      const form = new URLSearchParams();
      for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
        form.set(
          match[1],
          match[2]
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&'),
        );
      }
      form.set('decision', 'allow');
      const approved = await fetch(`${service.url}/oauth/authorize`, {
        method: 'POST',
        headers: { cookie: session, origin: service.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        redirect: 'manual',
      });
      const location = approved.headers.get('location') ?? '';
      check(
        approved.status === 302 && location.startsWith(`${callback}?`) && new URL(location).searchParams.get('code'),
        `Allow redirects to n8n's callback with a code (HTTP ${approved.status})`,
      );
      const landed = await fetch(location, { headers: browser, redirect: 'manual' });
      const page = await landed.text();
      check(
        landed.status === 200 && !/Error:|error_description|invalid_/.test(page),
        `n8n's callback exchanged the code (HTTP ${landed.status}: ${page.replace(/\s+/g, ' ').slice(0, 300)})`,
      );
      const grants = (await api('GET', '/api/v1/me/oauth-grants')).body.items ?? [];
      check(
        grants.some((g) => g.client.id === clientId && g.scopes.join(' ') === 'read write webhooks'),
        "Taskspace lists n8n under the owner's authorized apps with read, write and webhooks",
      );
      return { ...credential, clientId, clientSecret };
    },
  );

  /** The OAuth tokens n8n keeps in the credential (decrypted as n8n's Cipher does: OpenSSL AES-256-CBC, MD5 key derivation). */
  const oauthTokens = () => {
    const conn = db();
    let row;
    try {
      row = conn.prepare('SELECT data FROM credentials_entity WHERE id = ?').get(oauthCredential.id);
    } finally {
      conn.close();
    }
    const input = Buffer.from(row.data, 'base64');
    const salt = input.subarray(8, 16);
    const password = Buffer.concat([Buffer.from(n8nEnv.N8N_ENCRYPTION_KEY, 'binary'), salt]);
    const md5 = (b) => createHash('md5').update(b).digest();
    const h1 = md5(password);
    const h2 = md5(Buffer.concat([h1, password]));
    const iv = md5(Buffer.concat([h2, password]));
    const decipher = createDecipheriv('aes-256-cbc', Buffer.concat([h1, h2]), iv);
    const data = JSON.parse(Buffer.concat([decipher.update(input.subarray(16)), decipher.final()]).toString('utf8'));
    return data.oauthTokenData ?? {};
  };
  /**
   * Waits until the access token n8n holds has expired (the service runs with
   * TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS=5): the service then answers it 401 `token_expired`,
   * which is what n8n must react to by renewing it with the refresh token.
   */
  const awaitExpiry = async (accessToken) => {
    const refused = await until(
      'the access token to expire',
      async () => {
        const res = await http('GET', `${service.url}/api/v1/workspaces`, { token: accessToken });
        return res.status === 401 && res;
      },
      (ACCESS_TOKEN_SECONDS + 10) * 1000,
      250,
    );
    check(
      refused.body?.error?.details?.reason === 'token_expired',
      `the service refuses the access token as expired (${JSON.stringify(refused.body?.error ?? {})})`,
    );
  };

  await phase("OAuth2: after the access token ended, the editor's list search renews it and n8n stores the new tokens", async () => {
    const before = oauthTokens();
    check(before.access_token && before.refresh_token, 'n8n keeps an access and a refresh token in the credential');
    await awaitExpiry(before.access_token);
    const res = await http('POST', `http://127.0.0.1:${n8nPort}/rest/dynamic-node-parameters/resource-locator-results`, {
      headers: { 'browser-id': 'taskspace-host-test', cookie: n8nCookie },
      body: {
        path: 'parameters.projectId',
        nodeTypeAndVersion: { name: 'CUSTOM.taskspaceProject', version: 1 },
        methodName: 'searchProjects',
        currentNodeParameters: { authentication: 'oAuth2', resource: 'project', operation: 'get' },
        credentials: { taskspaceOAuth2Api: { id: oauthCredential.id, name: oauthCredential.name } },
        filter: 'needle',
      },
    });
    const names = (res.body?.data?.results ?? []).map((r) => r.name);
    check(
      JSON.stringify(names) === '["Needle in n8n"]',
      `the list search over OAuth2 answers after a refresh (HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)})`,
    );
    const after = oauthTokens();
    check(
      after.access_token && after.access_token !== before.access_token && after.refresh_token !== before.refresh_token,
      'n8n refreshed the tokens and stored the new pair in the credential',
    );
  });

  await phase('stop n8n', () => stop(n8n));

  await phase('run a node with the OAuth2 credential after its access token ended (`n8n execute`), check the service', async () => {
    const file = path.join(run, 'oauth.json');
    fs.writeFileSync(
      file,
      JSON.stringify(
        oauthWorkflow({ id: 'taskspaceOAuth01', workspaceId, credential: { id: oauthCredential.id, name: oauthCredential.name } }),
      ),
    );
    n8nCommand(n8nBin, n8nEnv, ['import:workflow', `--input=${file}`]);
    const before = oauthTokens();
    await awaitExpiry(before.access_token);
    try {
      n8nCommand(n8nBin, n8nEnv, ['execute', '--id=taskspaceOAuth01', '--rawOutput']);
    } catch (error) {
      throw new Error(`n8n execute failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    }
    const projects = (await api('GET', '/api/v1/me/projects?limit=500&search=OAuth2')).body.items ?? [];
    check(
      projects.some((p) => p.name === 'Made over OAuth2'),
      'the project made through the OAuth2 credential exists',
    );
    const grant = ((await api('GET', '/api/v1/me/oauth-grants')).body.items ?? []).find((g) => g.client.id === oauthCredential.clientId);
    check(grant?.lastUsedAt, "the request carried n8n's OAuth access token (the grant was used)");
    const after = oauthTokens();
    check(
      after.access_token !== before.access_token && after.refresh_token !== before.refresh_token,
      'the workflow run refreshed the tokens and n8n stored them',
    );
  });

  await phase('OAuth2: after the person revokes n8n in Taskspace, a run fails with a clear error', async () => {
    const grant = ((await api('GET', '/api/v1/me/oauth-grants')).body.items ?? []).find((g) => g.client.id === oauthCredential.clientId);
    const revoked = await api('DELETE', `/api/v1/me/oauth-grants/${encodeURIComponent(grant.id)}`);
    check(revoked.status === 200 || revoked.status === 204, `the grant is revoked (HTTP ${revoked.status})`);
    const projectsBefore = ((await api('GET', '/api/v1/me/projects?limit=500&search=OAuth2')).body.items ?? []).length;
    let output = '';
    let failed = false;
    try {
      output = n8nCommand(n8nBin, { ...n8nEnv, N8N_LOG_LEVEL: 'info' }, ['execute', '--id=taskspaceOAuth01', '--rawOutput']);
    } catch (error) {
      failed = true;
      output = `${error.stdout ?? ''}\n${error.stderr ?? ''}`;
    }
    check(failed || /NOT successful/.test(output), 'the run failed');
    check(
      output.includes('Taskspace refused to renew the OAuth2 access token: reconnect the credential'),
      `the error says to reconnect the credential (${(output.match(/.*(message|description|httpCode|name)"?\s*:.*/g) ?? []).slice(0, 12).join(' | ').slice(0, 1500) || output.slice(0, 1500)})`,
    );
    check(!/TypeError|ReferenceError|Cannot read properties/.test(output), 'no crash of the node or of n8n');
    const projectsAfter = ((await api('GET', '/api/v1/me/projects?limit=500&search=OAuth2')).body.items ?? []).length;
    check(projectsAfter === projectsBefore, 'nothing was created');
  });

  await phase('stop the service', () => stop(service));
  fs.rmSync(run, { recursive: true, force: true });
}

main()
  .then(() => {
    const total = Date.now() - started;
    console.log('\ntest:n8n passed. Durations:');
    for (const [name, ms] of timings) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
    console.log(
      `  ${(total / 1000).toFixed(1).padStart(7)} s  total (${total <= 15 * 60 * 1000 ? 'within' : 'OVER'} the 15-minute CI budget)`,
    );
  })
  .catch(async (error) => {
    console.error(`\ntest:n8n FAILED: ${error.stack ?? error}`);
    for (const proc of children) {
      console.error(`\n--- last output of ${proc.name} ---\n${proc.output().split('\n').slice(-40).join('\n')}`);
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
    process.exitCode = 1;
  });
