import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { bearerAuth } from './auth/hook';
import { closeBodylessRoutes } from './http/closed-bodies';
import { workspacesRoutes } from './modules/workspaces/routes';
import { foldersRoutes } from './modules/folders/routes';
import { membersRoutes } from './accounts/member-routes';
import { accessTokenRoutes } from './accounts/token-routes';
import { projectsRoutes } from './modules/projects/routes';
import { projectManageRoutes } from './modules/projects/manage';
import { projectMemberRoutes } from './modules/projects/member-routes';
import { fieldsRoutes } from './modules/fields/routes';
import { fieldManageRoutes } from './modules/fields/manage';
import { shareLinkRoutes } from './modules/share-links/routes';
import { tasksRoutes } from './modules/tasks/routes';
import { taskAssigneesRoutes } from './modules/tasks/assignee-routes';
import { taskDatesRoutes } from './modules/tasks/date-routes';
import { taskNotesRoutes } from './modules/tasks/note-routes';
import { taskSummaryRoutes } from './modules/tasks/summaries';
import { trashRoutes } from './modules/trash/routes';
import { commentsRoutes } from './modules/comments/routes';
import { agentsRoutes } from './modules/agents/routes';
import { publicAgentPageRoutes, publicAgentRoutes } from './modules/public-agents/routes';
import { conversationRoutes } from './modules/conversations/routes';
import { followUpRoutes } from './modules/conversations/follow-up';
import { mediaRoutes } from './modules/media/routes';
import { automationsRoutes } from './modules/automations/routes';
import { runRoutes } from './modules/runs/run-routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { subscriptionRoutes } from './modules/webhooks/subscription-routes';
import { inboundWebhookRoutes } from './modules/inbound/inbound-routes';
import { inboundRotateRoutes } from './modules/inbound/inbound-rotate-routes';
import { pieceHookRoutes } from './modules/inbound/piece-hook-routes';
import { runEventRoutes, runResumeRoutes } from './modules/runs/run-events';
import { sharePageRoutes } from './modules/share-links/pages';
import { accountRoutes } from './accounts/setup-routes';
import { authSessionRoutes } from './accounts/session-routes';
import { passwordResetRoutes } from './accounts/password-reset-routes';
import { emailChangeRoutes, emailVerifyRoutes } from './accounts/email-change-routes';
import { webAppRoutes } from './http/web-app';
import { oauthClientRoutes } from './modules/oauth/client-routes';
import { oauthRoutes } from './modules/oauth/routes';
import { secretRoutes } from './modules/secrets/routes';
import { connectionRoutes } from './modules/connections/routes';
import { connectionOAuthRoutes } from './modules/connections/oauth-routes';
import { pieceAuthRoutes } from './modules/pieces/auth-routes';
import { pieceRoutes } from './modules/pieces/routes';
import { formRoutes } from './modules/inbound/forms/routes';
import { liveRoutes } from './modules/live/routes';
import { mcpRoutes } from './modules/mcp/routes';
import { RouteCatalog } from './modules/mcp/catalog';
import { mailPreferenceRoutes, mailUnsubscribeRoutes } from './modules/mail/routes';

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
      foldersRoutes,
      membersRoutes,
      accessTokenRoutes,
      oauthClientRoutes,
      projectsRoutes,
      projectManageRoutes,
      projectMemberRoutes,
      fieldsRoutes,
      fieldManageRoutes,
      shareLinkRoutes,
      tasksRoutes,
      taskAssigneesRoutes,
      taskDatesRoutes,
      taskNotesRoutes,
      taskSummaryRoutes,
      trashRoutes,
      commentsRoutes,
      agentsRoutes,
      publicAgentRoutes,
      conversationRoutes,
      followUpRoutes,
      mediaRoutes,
      automationsRoutes,
      inboundRotateRoutes,
      runRoutes,
      runEventRoutes,
      secretRoutes,
      connectionRoutes,
      connectionOAuthRoutes,
      pieceRoutes,
      pieceAuthRoutes,
      liveRoutes,
      mailPreferenceRoutes,
      emailChangeRoutes,
    ],
  },
  // Spec section 9.2: signed webhook registration and the deprecated legacy subscriptions.
  { prefix: '/api/v2', api: true, plugins: [webhookRoutes, subscriptionRoutes] },
  // Public and browser-facing: inbound webhook URLs, hosted forms, public agent and share pages, account pages and sign-in, the OAuth 2.0 endpoints, the web app.
  {
    prefix: '',
    api: false,
    plugins: [
      inboundWebhookRoutes,
      pieceHookRoutes,
      runResumeRoutes,
      formRoutes,
      publicAgentPageRoutes,
      sharePageRoutes,
      accountRoutes,
      authSessionRoutes,
      passwordResetRoutes,
      emailVerifyRoutes,
      mailUnsubscribeRoutes,
      oauthRoutes,
      mcpRoutes,
      webAppRoutes,
    ],
  },
];

/** Registers every group of {@link ROUTE_TABLE}, each in its own encapsulated scope. */
export async function registerRoutes(app: FastifyInstance, table: readonly RouteGroup[] = ROUTE_TABLE): Promise<void> {
  // The declarations the MCP tools are derived from (modules/mcp/catalog.ts).
  if (!app.hasDecorator('routeCatalog')) {
    const catalog = new RouteCatalog();
    catalog.collectFrom(app);
    app.decorate('routeCatalog', catalog);
  }
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
