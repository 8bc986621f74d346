import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ItemEnvelope, Responses } from '../../http/schemas';
import { kindOptions, kindSample, SAMPLE_MAX_ITEMS } from './calls';

const OptionsParams = Type.Object({ type: Type.String({ minLength: 3, maxLength: 300 }) });

/** Body of `POST /automations/kinds/{type}/options`. */
const OptionsBody = Type.Object(
  {
    workspaceId: Type.String({ minLength: 1 }),
    prop: Type.String({ minLength: 1, maxLength: 200, description: 'the property whose options are asked for (under the step’s `props`)' }),
    connectionId: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    props: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'the values of the other properties (the refreshers)' }),
    ),
  },
  { additionalProperties: false },
);

const OptionsSchema = Type.Object(
  {
    options: Type.Optional(Type.Array(Type.Object({ label: Type.String(), value: Type.Unknown() }, { additionalProperties: false }))),
    disabled: Type.Optional(Type.Boolean()),
    placeholder: Type.Optional(Type.String()),
    props: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'dynamic properties: their fields' })),
  },
  { additionalProperties: false },
);

/** Body of `POST /automations/kinds/{type}/sample`. */
const SampleBody = Type.Object(
  {
    workspaceId: Type.String({ minLength: 1 }),
    connectionId: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    props: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'the trigger’s properties, as in the automation' })),
  },
  { additionalProperties: false },
);

const SampleSchema = Type.Object(
  {
    items: Type.Array(Type.Unknown(), {
      maxItems: SAMPLE_MAX_ITEMS,
      description: 'items as the trigger’s runs get them (`{{ trigger.* }}`), newest first',
    }),
    source: Type.Union([Type.Literal('service'), Type.Literal('sample')], {
      description: '`service`: read from the service by the trigger’s test; `sample`: the piece’s declared sample data',
    }),
  },
  { additionalProperties: false },
);

/**
 * `POST /api/v1/automations/kinds/{type}/options` (docs/integrations.md "Dynamic options"): a
 * piece kind's dropdown choices (or a dynamic property's fields) computed by the piece with the
 * step's connection; `POST /api/v1/automations/kinds/{type}/sample` (docs/integrations.md
 * "Sample data"): a piece trigger's sample items, read by its test with the connection.
 */
export const pieceRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/automations/kinds/:type/options',
    {
      config: { firstParty: true },
      schema: {
        tags: ['automations'],
        summary: "A piece kind's dropdown options, computed by the piece with the step's connection",
        params: OptionsParams,
        body: OptionsBody,
        response: Responses(ItemEnvelope(OptionsSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await kindOptions(app.services, app.automations.pieces, request.actor, { type: request.params.type, ...request.body }),
    }),
  );
  app.post(
    '/automations/kinds/:type/sample',
    {
      config: { firstParty: true },
      schema: {
        tags: ['automations'],
        summary: "A piece trigger's sample items, read from its service by the trigger's test with the step's connection",
        params: OptionsParams,
        body: SampleBody,
        response: Responses(ItemEnvelope(SampleSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await kindSample(app.services, app.automations.pieces, request.actor, { type: request.params.type, ...request.body }),
    }),
  );
};
