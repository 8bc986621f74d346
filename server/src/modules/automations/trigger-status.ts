import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Actor } from '../../auth/tokens';
import { ItemEnvelope, Responses } from '../../http/schemas';
import { isoTime } from '../../platform/clock';
import type { Services } from '../../services';
import { requireAutomation } from '../engine-host/automation-access';
import type { AutomationRuntime } from '../engine-host/runtime';
import { automationParams } from './schemas';

/** `GET /automations/{id}/trigger`: whether the automation's piece trigger is registered with its service. */
export const TriggerStatusSchema = Type.Object(
  {
    type: Type.String({ description: "the trigger's kind" }),
    source: Type.String({ description: "a piece's poll or piece-webhook, or a built-in kind's source (inbound, schedule, event…)" }),
    state: Type.Union(
      [Type.Literal('enabled'), Type.Literal('pending'), Type.Literal('failed'), Type.Literal('off'), Type.Literal('built_in')],
      {
        description:
          "enabled: the piece's onEnable succeeded for this version; pending: enabled but not yet registered (the leader registers within a poll interval); failed: the last onEnable or poll failed (see error); off: the automation is disabled; built_in: not a piece trigger, nothing to register",
      },
    ),
    enabledAt: Type.Optional(Type.String({ format: 'date-time', description: 'when onEnable last succeeded (piece triggers)' })),
    error: Type.Optional(
      Type.Object(
        {
          op: Type.Union([Type.Literal('enable'), Type.Literal('disable'), Type.Literal('poll')]),
          message: Type.String({ description: "the piece's or the service's message" }),
          at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** What {@link triggerStatus} answers. */
export type TriggerStatus = Static<typeof TriggerStatusSchema>;

/**
 * How the automation's trigger stands with its outside service (docs/integrations.md "Triggers"),
 * any member: a piece trigger whose `onEnable` (or last poll) failed says why, so that a webhook
 * the service never registered is seen without reading the server's log.
 * @throws ServiceError 404 for an unknown automation or one outside the caller's workspaces.
 */
export async function triggerStatus(svc: Services, rt: AutomationRuntime, actor: Actor, automationId: string): Promise<TriggerStatus> {
  const { automation } = await requireAutomation(svc, rt, actor, automationId, 'Viewer', 'reading automations');
  const type = automation.definition.trigger.type;
  const kind = rt.engine.kinds.trigger(type);
  const source = kind?.source ?? 'unknown';
  if (!kind?.piece) return { type, source, state: 'built_in' };
  const [record, failure] = await Promise.all([rt.hooks.enabled(automationId), rt.hooks.lastFailure(automationId)]);
  const current = record !== null && record.trigger === JSON.stringify(automation.definition.trigger);
  const status: TriggerStatus = { type, source, state: 'pending' };
  if (current) {
    status.state = 'enabled';
    status.enabledAt = isoTime(record.enabledAt);
  }
  if (failure) status.error = { op: failure.op, message: failure.message, at: isoTime(failure.at) };
  if (!automation.enabled) status.state = 'off';
  else if (failure && failure.op !== 'disable') status.state = 'failed';
  return status;
}

/** Registers `GET /automations/{id}/trigger` on the automations route plugin. */
export function triggerStatusRoute(plugin: FastifyInstance, svc: Services, rt: AutomationRuntime, tags: string[]): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/automations/:automationId/trigger',
    {
      schema: {
        tags,
        summary: "Whether the automation's piece trigger is registered with its service (any member); why not, when it failed",
        params: automationParams,
        response: Responses(ItemEnvelope(TriggerStatusSchema)),
      },
    },
    async (request) => ({ ok: true, item: await triggerStatus(svc, rt, request.actor, request.params.automationId) }),
  );
}
