import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: routes for projects. */
export const projectsRoutes: FastifyPluginAsync = async () => {};
