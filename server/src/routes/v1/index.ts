import type { FastifyPluginAsync } from 'fastify';
import { bearerAuth } from '../../auth/hook';
import { closeBodylessRoutes } from '../../http/closed-bodies';
import { workspacesRoutes } from './workspaces';
import { projectsRoutes } from './projects';
import { tasksRoutes } from './tasks';
import { agentsRoutes } from './agents';
import { mediaRoutes } from './media';
import { projectMemberRoutes } from './project-members';
import { automationsRoutes } from './automations';
import { accessTokenRoutes } from './access-tokens';
import { membersRoutes } from './members';

/** Everything under /api/v1: the bearer-token guard (the app-wide request meter has authenticated and counted the request), then one plugin per resource. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', bearerAuth());
  closeBodylessRoutes(app);
  await app.register(workspacesRoutes);
  await app.register(projectsRoutes);
  await app.register(tasksRoutes);
  await app.register(agentsRoutes);
  await app.register(mediaRoutes);
  await app.register(projectMemberRoutes);
  await app.register(automationsRoutes);
  await app.register(accessTokenRoutes);
  await app.register(membersRoutes);
};
