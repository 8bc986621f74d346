import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: routes for media. */
export const mediaRoutes: FastifyPluginAsync = async () => {};
