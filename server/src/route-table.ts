import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { bearerAuth } from './auth/hook';
import { closeBodylessRoutes } from './http/closed-bodies';
import { workspacesRoutes } from './routes/v1/workspaces';
import { membersRoutes } from './routes/v1/members';
import { accessTokenRoutes } from './routes/v1/access-tokens';
import { projectsRoutes } from './routes/v1/projects';
import { projectMemberRoutes } from './routes/v1/project-members';
import { fieldsRoutes } from './routes/v1/fields';
import { shareLinkRoutes } from './routes/v1/share-links';
import { tasksRoutes } from './routes/v1/tasks';
import { taskAssigneesRoutes } from './routes/v1/task-assignees';
import { taskDatesRoutes } from './routes/v1/task-dates';
import { taskNotesRoutes } from './routes/v1/task-notes';
import { commentsRoutes } from './routes/v1/comments';
import { agentsRoutes } from './routes/v1/agents';
import { publicAgentPageRoutes, publicAgentRoutes } from './routes/v1/public-agents';
import { conversationRoutes } from './routes/v1/conversations';
import { mediaRoutes } from './routes/v1/media';
import { automationsRoutes } from './routes/v1/automations';
import { webhookRoutes } from './routes/v2/webhooks';
import { subscriptionRoutes } from './routes/v2/subscriptions';
import { inboundWebhookRoutes } from './routes/webhooks';
import { sharePageRoutes } from './routes/share-pages';
import { accountRoutes } from './routes/accounts';
import { authSessionRoutes } from './routes/auth-sessions';
import { webAppRoutes } from './http/web-app';

/** A group of route plugins under one prefix; `api` groups sit behind the bearer/session guard. */
export interface RouteGroup {
  prefix: string;
  /** API groups: credentials required (the app-wide request meter has authenticated and counted the request), bodyless routes refuse bodies. */
  api: boolean;
  plugins: FastifyPluginAsync[];
}

/**
 * Every route plugin of the service and its prefix, in registration order: the one place to see
 * what the service serves (spec sections in each plugin's TSDoc).
 */
export const ROUTE_TABLE: readonly RouteGroup[] = [
  {
    prefix: '/api/v1',
    api: true,
    plugins: [
      workspacesRoutes,
      membersRoutes,
      accessTokenRoutes,
      projectsRoutes,
      projectMemberRoutes,
      fieldsRoutes,
      shareLinkRoutes,
      tasksRoutes,
      taskAssigneesRoutes,
      taskDatesRoutes,
      taskNotesRoutes,
      commentsRoutes,
      agentsRoutes,
      publicAgentRoutes,
      conversationRoutes,
      mediaRoutes,
      automationsRoutes,
    ],
  },
  // Spec section 9.2: signed webhook registration and the deprecated legacy subscriptions.
  { prefix: '/api/v2', api: true, plugins: [webhookRoutes, subscriptionRoutes] },
  // Public and browser-facing: inbound webhook URLs, public agent and share pages, account pages and sign-in, the web app.
  { prefix: '', api: false, plugins: [inboundWebhookRoutes, publicAgentPageRoutes, sharePageRoutes, accountRoutes, authSessionRoutes, webAppRoutes] },
];

/** Registers every group of {@link ROUTE_TABLE}, each in its own encapsulated scope. */
export async function registerRoutes(app: FastifyInstance, table: readonly RouteGroup[] = ROUTE_TABLE): Promise<void> {
  for (const group of table) {
    await app.register(
      async (scope) => {
        if (group.api) {
          scope.addHook('onRequest', bearerAuth());
          closeBodylessRoutes(scope);
        }
        for (const plugin of group.plugins) await scope.register(plugin);
      },
      { prefix: group.prefix },
    );
  }
}
