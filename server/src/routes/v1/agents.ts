import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: routes for agents. */
export const agentsRoutes: FastifyPluginAsync = async () => {};
