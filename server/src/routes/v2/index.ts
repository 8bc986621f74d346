import type { FastifyPluginAsync } from 'fastify';
import { bearerAuth } from '../../auth/hook';
import { closeBodylessRoutes } from '../../http/closed-bodies';
import { subscriptionRoutes } from './subscriptions';
import { webhookRoutes } from './webhooks';

/**
 * Everything under /api/v2 (spec section 9.2): signed webhook registration and the deprecated
 * legacy subscriptions, behind the same bearer-token and rate-limit hook as /api/v1.
 */
export const v2Routes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', bearerAuth());
  closeBodylessRoutes(app);
  await app.register(webhookRoutes);
  await app.register(subscriptionRoutes);
};
