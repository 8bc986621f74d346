import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: routes for tasks. */
export const tasksRoutes: FastifyPluginAsync = async () => {};
