import type { FastifyPluginAsync } from 'fastify';
import { bearerAuth } from '../../auth/hook';
import { workspacesRoutes } from './workspaces';
import { projectsRoutes } from './projects';
import { tasksRoutes } from './tasks';
import { agentsRoutes } from './agents';
import { mediaRoutes } from './media';
import { projectMemberRoutes } from './project-members';
import { automationsRoutes } from './automations';

/** Everything under /api/v1: bearer authentication and rate limiting, then one plugin per resource. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', bearerAuth(app.services));
  await app.register(workspacesRoutes);
  await app.register(projectsRoutes);
  await app.register(tasksRoutes);
  await app.register(agentsRoutes);
  await app.register(mediaRoutes);
  await app.register(projectMemberRoutes);
  await app.register(automationsRoutes);
};
