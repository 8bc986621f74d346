import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EDITORS, FINAL_RUN_STATUSES, PICKERS, RUN_STATUSES } from '@taskspace/engine';
import { Responses } from '../../http/schemas';

/** A JSON Schema (draft-07) object, passed through as it is. */
const jsonSchema = Type.Object({}, { additionalProperties: true, description: 'a JSON Schema (draft-07)' });

/** One trigger or action kind of the catalogue (engine `KindInfo`). */
const kindInfo = Type.Object(
  {
    type: Type.String({ description: 'the kind\'s `type` in a definition, e.g. "http.request"' }),
    title: Type.String({ description: 'human label' }),
    summary: Type.String({ description: 'one line for the kind picker' }),
    category: Type.String({ description: 'group in the kind picker: Tasks, Projects, Flow, HTTP, AI, Data, Inbound, Time, Runs' }),
    icon: Type.String({ description: 'a lucide icon name, kebab-case' }),
    sideEffects: Type.Boolean({ description: 'true when testing the step changes something outside the run' }),
    parameters: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "object schema of the kind's own fields; each property has `title` and may have `description`, `default`, `examples`, `x-picker`, `x-editor`",
      },
    ),
    output: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'shape of the step output or trigger variables' })),
    variables: Type.Optional(Type.Array(Type.String(), { description: "triggers: the trigger.* names (a form's are its field names)" })),
    example: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'triggers: the variables of one run, shaped as real events give them; ids are `example-…` placeholders',
        },
      ),
    ),
    nested: Type.Optional(Type.Array(Type.String(), { description: 'actions holding step lists: the property names' })),
    piece: Type.Optional(
      Type.Object(
        {
          name: Type.String({ description: 'short name, the first part of the type' }),
          packageName: Type.String({ description: 'npm package name' }),
          version: Type.String(),
          displayName: Type.String(),
          authTypes: Type.Array(Type.String(), { description: 'connection types the piece takes; empty: none' }),
        },
        { additionalProperties: false, description: 'kinds made from an Activepieces piece (docs/integrations.md)' },
      ),
    ),
  },
  { additionalProperties: false },
);

/** An array of one of `names` (an OpenAPI `enum`, so the web's generated types name them). */
const namesOf = (names: readonly string[], description: string) =>
  Type.Array(Type.Union(names.map((n) => Type.Literal(n))), { description });

/** The names the builder and the runs screens read (engine `KindLists`), published instead of copied. */
const kindLists = Type.Object(
  {
    editors: namesOf(EDITORS, 'every `x-editor` value a parameter may carry'),
    pickers: namesOf(PICKERS, 'every `x-picker` value a parameter may carry'),
    icons: Type.Array(Type.String(), { description: 'the icons the kinds name, sorted, each once (lucide names, kebab-case)' }),
    runStatuses: namesOf(RUN_STATUSES, 'every run status, in lifecycle order'),
    finalRunStatuses: namesOf(FINAL_RUN_STATUSES, 'the statuses after which a run never changes'),
  },
  { additionalProperties: false },
);

/** `GET /api/v1/automations/kinds`: the catalogue the builder is generated from. */
const kindCatalogue = Type.Object(
  {
    triggers: Type.Array(kindInfo),
    actions: Type.Array(kindInfo),
    commonActionParameters: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'object schema of the fields every action has: id, name, retry, disabled, onError, timeoutMs',
      },
    ),
    lists: kindLists,
  },
  { additionalProperties: false },
);

/**
 * The definition's JSON schema and the catalogue of trigger and action kinds, both derived from
 * the engine's kinds (`engine/src/kinds`; docs "Automations", "Kinds"). Any signed-in member.
 */
export function kindsRoutes(plugin: FastifyInstance, tags: string[]): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/automations/schema',
    { schema: { tags, summary: 'The JSON schema of an automation definition', response: Responses(jsonSchema) } },
    async () => app.automations.engine.kinds.schema,
  );
  app.get(
    '/automations/kinds',
    {
      schema: {
        tags,
        summary: 'The trigger and action kinds: labels, parameters (JSON Schema with editor hints), outputs',
        response: Responses(kindCatalogue),
      },
    },
    async () => app.automations.engine.kinds.catalogue(),
  );
}
