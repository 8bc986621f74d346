#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { DB_FILE, openDatabase } from './platform/db/connection';
import { createPostgresPool } from './platform/db/postgres/pool';
import { PostgresSql } from './platform/db/postgres/sql';
import { postgresStore } from './platform/db/store';
import { createAccessToken, listAccessTokens, revokeAccessToken } from './auth/tokens';
import { createUser, getUserByHandle, updateUser, PLANS, RATE_TIERS, type Plan, type RateTier } from './modules/users/service';
import { createWorkspace, listWorkspacesOf, setWorkspaceMember } from './modules/workspaces/service';
import { ROLES } from './auth/roles';
import { ServiceError } from './errors';
import { runSync, type Query, type Sql } from './platform/db/query';
import { readFileSync } from 'node:fs';
import { checkPasswordPolicy, hashPasswordSync } from './accounts/passwords';
import { setEmail, setPasswordHash } from './accounts/credentials';
import { OPS_COMMANDS, OPS_USAGE, runOpsCommand } from './ops/commands';
import { piecesMain } from './modules/pieces/cli';

const USAGE = `Usage: taskspace <command> [options]

Administers the service's database directly (safe while the server runs): the SQLite file of
the data directory, or the PostgreSQL database of DATABASE_URL when that is set.
Data directory: --data-dir DIR, else TASKSPACE_DATA_DIR, else ./.data (relative to the current
folder). The database must exist: the first start of the server (npm start) creates it.
A handle may be written with or without its leading @ (owner or @owner).

Commands:
  user create <handle> [--display-name NAME] [--email EMAIL] [--plan PLAN] [--tier TIER] [--verified]
  user set-password <handle>              reads the new password from stdin (first line), never from arguments
  user update <handle> [--plan PLAN] [--tier TIER] [--verified | --unverified]
  user list
  workspace create <name> --owner <handle>
  workspace list [--user <handle>]
  member add <workspaceId> <handle> <role>
  token create <handle> [--name NAME]     prints the token once; only its hash is stored
  token list <handle>
  token revoke <tokenId>
${OPS_USAGE}
  pieces list | add <name|folder> | manifest   Activepieces pieces (taskspace pieces --help)

Plans: ${PLANS.join(', ')}. Tiers: ${RATE_TIERS.join(', ')}. Roles: ${ROLES.join(', ')}.
`;

type Out = (line: string) => void;

const OPTIONS = {
  'data-dir': { type: 'string' },
  'display-name': { type: 'string' },
  plan: { type: 'string' },
  tier: { type: 'string' },
  verified: { type: 'boolean' },
  unverified: { type: 'boolean' },
  owner: { type: 'string' },
  user: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'string' },
  'table-copy': { type: 'boolean' },
} as const;

type Parsed = ReturnType<typeof parseCommandLine>;

/** Every `<group> <command>` the CLI knows. */
const COMMANDS = new Set([
  'user create',
  'user set-password',
  'user update',
  'user list',
  'workspace create',
  'workspace list',
  'member add',
  'token create',
  'token list',
  'token revoke',
]);

function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
}

/** A handle as typed on the command line: `@ann` and `ann` name the same user (the banner prints `@owner`). */
function handleArg(value: string): string;
function handleArg(value: string | undefined): string | undefined;
function handleArg(value: string | undefined): string | undefined {
  return value?.startsWith('@') ? value.slice(1) : value;
}

/** Reads a secret (a password) from outside the argument list; the first line, without its end. */
export type ReadSecret = () => string;

/** Reads the first line of standard input (a pipe or a terminal; the input is not echoed by us). */
function readStdinLine(): string {
  return readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '';
}

/** One command, as a storage operation (it runs the same way on SQLite and PostgreSQL). */
function* run(q: Sql, parsed: Parsed, out: Out, readSecret: ReadSecret): Query<void> {
  const { values, positionals } = parsed;
  const [group, command, ...rest] = positionals;
  const now = Date.now();
  const need = (n: number) => {
    if (rest.length < n) throw new UsageError();
  };
  switch (`${group} ${command}`) {
    case 'user create': {
      need(1);
      const user = yield* q.transaction(function* (tx) {
        const created = yield* createUser(
          tx,
          {
            handle: handleArg(rest[0]!),
            displayName: values['display-name'],
            plan: values.plan as Plan | undefined,
            rateTier: values.tier as RateTier | undefined,
            verified: values.verified ?? false,
          },
          now,
        );
        if (values.email) yield* setEmail(tx, created.id, values.email);
        return created;
      });
      out(`created user @${user.handle} (${user.id}) plan=${user.plan} tier=${user.rateTier} verified=${user.verified}`);
      return;
    }
    case 'user update': {
      need(1);
      const verified = values.verified ? true : values.unverified ? false : undefined;
      const user = yield* updateUser(q, handleArg(rest[0]!), { plan: values.plan, rateTier: values.tier, verified });
      out(`updated user @${user.handle}: plan=${user.plan} tier=${user.rateTier} verified=${user.verified}`);
      return;
    }
    case 'user set-password': {
      need(1);
      const user = yield* getUserByHandle(q, handleArg(rest[0]!));
      const password = checkPasswordPolicy(readSecret());
      yield* setPasswordHash(q, user.id, hashPasswordSync(password));
      out(`password set for @${user.handle}`);
      return;
    }
    case 'user list': {
      const rows = yield* q.all<{ handle: string; plan: string; rate_tier: string; verified: number }>(
        'SELECT handle, plan, rate_tier, verified FROM users ORDER BY lower(handle), handle',
      );
      for (const r of rows) out(`@${r.handle}\tplan=${r.plan}\ttier=${r.rate_tier}\tverified=${r.verified === 1}`);
      return;
    }
    case 'workspace create': {
      need(1);
      if (!values.owner) throw new UsageError('--owner is required');
      const owner = yield* getUserByHandle(q, handleArg(values.owner));
      const ws = yield* q.transaction((tx) => createWorkspace(tx, rest[0]!, owner.id, now));
      out(`created workspace ${ws.id} '${ws.name}' owned by @${owner.handle}`);
      return;
    }
    case 'workspace list': {
      const rows = values.user
        ? yield* listWorkspacesOf(q, (yield* getUserByHandle(q, handleArg(values.user))).id)
        : yield* q.all<{ id: string; name: string }>('SELECT id, name FROM workspaces ORDER BY created_at');
      for (const r of rows) out(`${r.id}\t${r.name}`);
      return;
    }
    case 'member add': {
      need(3);
      yield* setWorkspaceMember(q, rest[0]!, handleArg(rest[1]!), rest[2]!, now);
      out(`@${handleArg(rest[1]!)} is now ${rest[2]} of workspace ${rest[0]}`);
      return;
    }
    case 'token create': {
      need(1);
      const user = yield* getUserByHandle(q, handleArg(rest[0]!));
      const { id, token } = yield* createAccessToken(q, user.id, values.name ?? 'cli', now);
      out(`token id: ${id}`);
      out(`token (shown once): ${token}`);
      return;
    }
    case 'token list': {
      need(1);
      const user = yield* getUserByHandle(q, handleArg(rest[0]!));
      for (const t of yield* listAccessTokens(q, user.id)) {
        out(`${t.id}\t${t.name}\tcreated=${new Date(t.createdAt).toISOString()}\t${t.revokedAt ? 'revoked' : 'active'}`);
      }
      return;
    }
    case 'token revoke': {
      need(1);
      if (!(yield* revokeAccessToken(q, rest[0]!, now))) throw new ServiceError(404, 'NOT_FOUND', `no active token '${rest[0]}'`);
      out(`revoked token ${rest[0]}`);
      return;
    }
    default:
      throw new UsageError();
  }
}

class UsageError extends Error {}

/**
 * Runs one CLI command against the data directory and returns its exit code
 * (0 ok, 1 failed, 2 usage): synchronously on the SQLite file, as a promise on PostgreSQL
 * (`DATABASE_URL` set; the database must have been set up by a server start).
 *
 * The data directory is `--data-dir DIR`, else `TASKSPACE_DATA_DIR`, else `./.data`; its absolute
 * path is written to `err` first. Every command needs an existing database there: the CLI never
 * creates one (the server's first start does), so a command run from the wrong folder fails with 1
 * and a message naming the directory instead of silently creating an empty database.
 */
export function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: Out = (l) => process.stdout.write(l + '\n'),
  err: Out = (l) => process.stderr.write(l + '\n'),
  readSecret: ReadSecret = readStdinLine,
): number | Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  // Pieces need no database (modules/pieces/cli.ts).
  if (argv[0] === 'pieces') return piecesMain(argv.slice(1), env, out, err);
  let parsed: Parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    err(`taskspace: ${(error as Error).message}`);
    return 1;
  }
  const opsCommand = parsed.positionals.length === 1 && OPS_COMMANDS.has(parsed.positionals[0]!);
  if (!opsCommand && !COMMANDS.has(parsed.positionals.slice(0, 2).join(' '))) {
    err(USAGE);
    return 2;
  }
  const dataDirOption = parsed.values['data-dir'];
  const config = loadConfig(dataDirOption ? { ...env, TASKSPACE_DATA_DIR: dataDirOption } : env);
  if (opsCommand) return runOpsCommand(parsed.positionals[0]!, parsed.values, config, env, out, err);
  if (config.databaseUrl) return mainOnPostgres(config.databaseUrl, parsed, out, err, readSecret);
  err(`taskspace: data directory ${config.dataDir}`);
  const file = path.join(config.dataDir, DB_FILE);
  if (!fs.existsSync(file)) {
    err(
      `taskspace: no Taskspace database in ${config.dataDir} (looked for ${DB_FILE}). ` +
        "Point at the service's data directory with --data-dir DIR or TASKSPACE_DATA_DIR=DIR " +
        '(the server uses ./.data of the folder it was started from unless TASKSPACE_DATA_DIR is set); ' +
        'a new database is created by the first start of the server (npm start), never by this CLI.',
    );
    return 1;
  }
  const db = openDatabase(config.dataDir);
  try {
    runSync(run(db.handle, parsed, out, readSecret));
    return 0;
  } catch (error) {
    return failure(error, err);
  } finally {
    db.close();
  }
}

/** {@link main} on PostgreSQL (`DATABASE_URL`): the same commands, on a one-connection pool. */
async function mainOnPostgres(url: string, parsed: Parsed, out: Out, err: Out, readSecret: ReadSecret): Promise<number> {
  const shown = new URL(url);
  err(`taskspace: PostgreSQL database ${shown.host}${shown.pathname} (DATABASE_URL)`);
  const pool = createPostgresPool(url, { max: 1 });
  // A connection dropped while idle is reported by the query that next needs it.
  pool.on('error', () => undefined);
  try {
    const schema = await pool.query<{ migrations: string | null }>("SELECT to_regclass('schema_migrations') AS migrations");
    if (schema.rows[0]?.migrations === null) {
      err(
        `taskspace: no Taskspace schema in the PostgreSQL database ${shown.pathname.slice(1)}. ` +
          'A new database is set up by the first start of the server with the same DATABASE_URL, never by this CLI.',
      );
      return 1;
    }
    await postgresStore(pool).run(run(new PostgresSql(pool), parsed, out, readSecret));
    return 0;
  } catch (error) {
    return failure(error, err);
  } finally {
    await pool.end();
  }
}

/** The exit code for a command that threw (2 usage, 1 refused); anything else is rethrown. */
function failure(error: unknown, err: Out): number {
  if (error instanceof UsageError) {
    if (error.message) err(`taskspace: ${error.message}`);
    err(USAGE);
    return 2;
  }
  if (error instanceof ServiceError) {
    err(`taskspace: ${error.message}`);
    return 1;
  }
  throw error;
}

if (require.main === module) {
  void Promise.resolve(main(process.argv.slice(2))).then((code) => (process.exitCode = code));
}
