#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase, transaction, type Db } from './db/connection';
import { createAccessToken, listAccessTokens, revokeAccessToken } from './auth/tokens';
import { createUser, getUserByHandle, updateUser, PLANS, RATE_TIERS, type Plan, type RateTier } from './domain/users';
import { createWorkspace, listWorkspacesOf, setWorkspaceMember } from './domain/workspaces';
import { ROLES } from './auth/roles';
import { ServiceError } from './errors';
import { sql } from './db/statements';

const USAGE = `Usage: taskspace <command> [options]

Administers the service's SQLite file directly (safe while the server runs).
Data directory: --data-dir, else TASKSPACE_DATA_DIR, else ./.data

Commands:
  user create <handle> [--display-name NAME] [--plan PLAN] [--tier TIER] [--verified]
  user update <handle> [--plan PLAN] [--tier TIER] [--verified | --unverified]
  user list
  workspace create <name> --owner <handle>
  workspace list [--user <handle>]
  member add <workspaceId> <handle> <role>
  token create <handle> [--name NAME]     prints the token once; only its hash is stored
  token list <handle>
  token revoke <tokenId>

Plans: ${PLANS.join(', ')}. Tiers: ${RATE_TIERS.join(', ')}. Roles: ${ROLES.join(', ')}.
`;

type Out = (line: string) => void;

function run(db: Db, argv: string[], out: Out): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      'display-name': { type: 'string' },
      plan: { type: 'string' },
      tier: { type: 'string' },
      verified: { type: 'boolean' },
      unverified: { type: 'boolean' },
      owner: { type: 'string' },
      user: { type: 'string' },
      name: { type: 'string' },
    },
  });
  const [group, command, ...rest] = positionals;
  const now = Date.now();
  const need = (n: number) => {
    if (rest.length < n) throw new UsageError();
  };
  switch (`${group} ${command}`) {
    case 'user create': {
      need(1);
      const user = createUser(
        db,
        {
          handle: rest[0]!,
          displayName: values['display-name'],
          plan: values.plan as Plan | undefined,
          rateTier: values.tier as RateTier | undefined,
          verified: values.verified ?? false,
        },
        now,
      );
      out(`created user @${user.handle} (${user.id}) plan=${user.plan} tier=${user.rateTier} verified=${user.verified}`);
      return;
    }
    case 'user update': {
      need(1);
      const verified = values.verified ? true : values.unverified ? false : undefined;
      const user = updateUser(db, rest[0]!, { plan: values.plan, rateTier: values.tier, verified });
      out(`updated user @${user.handle}: plan=${user.plan} tier=${user.rateTier} verified=${user.verified}`);
      return;
    }
    case 'user list': {
      const rows = sql<[], { handle: string; plan: string; rate_tier: string; verified: number }>(
        db,
        'SELECT handle, plan, rate_tier, verified FROM users ORDER BY handle',
      ).all();
      for (const r of rows) out(`@${r.handle}\tplan=${r.plan}\ttier=${r.rate_tier}\tverified=${r.verified === 1}`);
      return;
    }
    case 'workspace create': {
      need(1);
      if (!values.owner) throw new UsageError('--owner is required');
      const owner = getUserByHandle(db, values.owner);
      const ws = transaction(db, () => createWorkspace(db, rest[0]!, owner.id, now));
      out(`created workspace ${ws.id} '${ws.name}' owned by @${owner.handle}`);
      return;
    }
    case 'workspace list': {
      const rows = values.user
        ? listWorkspacesOf(db, getUserByHandle(db, values.user).id)
        : sql<[], { id: string; name: string }>(db, 'SELECT id, name FROM workspaces ORDER BY created_at').all();
      for (const r of rows) out(`${r.id}\t${r.name}`);
      return;
    }
    case 'member add': {
      need(3);
      setWorkspaceMember(db, rest[0]!, rest[1]!, rest[2]!, now);
      out(`@${rest[1]} is now ${rest[2]} of workspace ${rest[0]}`);
      return;
    }
    case 'token create': {
      need(1);
      const user = getUserByHandle(db, rest[0]!);
      const { id, token } = createAccessToken(db, user.id, values.name ?? 'cli', now);
      out(`token id: ${id}`);
      out(`token (shown once): ${token}`);
      return;
    }
    case 'token list': {
      need(1);
      const user = getUserByHandle(db, rest[0]!);
      for (const t of listAccessTokens(db, user.id)) {
        out(`${t.id}\t${t.name}\tcreated=${new Date(t.createdAt).toISOString()}\t${t.revokedAt ? 'revoked' : 'active'}`);
      }
      return;
    }
    case 'token revoke': {
      need(1);
      if (!revokeAccessToken(db, rest[0]!, now)) throw new ServiceError(404, 'NOT_FOUND', `no active token '${rest[0]}'`);
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
 * (0 ok, 1 failed, 2 usage).
 */
export function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out: Out = (l) => process.stdout.write(l + '\n'), err: Out = (l) => process.stderr.write(l + '\n')): number {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const dirIndex = argv.indexOf('--data-dir');
  const config = loadConfig(dirIndex >= 0 && argv[dirIndex + 1] ? { ...env, TASKSPACE_DATA_DIR: argv[dirIndex + 1] } : env);
  const db = openDatabase(config.dataDir);
  try {
    run(db, argv, out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) err(`taskspace: ${error.message}`);
      err(USAGE);
      return 2;
    }
    if (error instanceof ServiceError || (error instanceof Error && (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) {
      err(`taskspace: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    db.close();
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
