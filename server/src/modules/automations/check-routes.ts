import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Responses } from '../../http/schemas';
import { checkDraft } from './draft-check';

/** One problem of a draft: the field it names (`actions[1].approvers[0]`), why, and a message for the author. */
const DraftProblem = Type.Object(
  {
    field: Type.String({ description: 'the path of the value, as a save error names it (`actions[0].url`)' }),
    reason: Type.String({ description: 'a stable reason, as in a save error (`not_a_member`, `unknown_variable`, …)' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/**
 * Body of `POST /automations/check`: where the draft would be saved, and the draft as it stands.
 * The draft itself is free-form here: its problems are the answer rather than a 400.
 */
const CheckBody = Type.Object(
  {
    workspaceId: Type.String({ minLength: 1, description: 'the workspace the draft is saved in' }),
    definition: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'the draft as it stands: the definition fields of a POST /automations body (`name`, `trigger`, `actions`, …)',
      },
    ),
  },
  { additionalProperties: false },
);

/** Answer of `POST /automations/check`: 200 whatever the draft holds. */
const CheckAnswer = Type.Object(
  {
    ok: Type.Literal(true),
    valid: Type.Boolean({ description: 'true when a save of this draft would pass the same checks' }),
    problems: Type.Array(DraftProblem, { description: 'empty when valid; otherwise the first problem a save would be refused for' }),
  },
  { additionalProperties: false },
);

/**
 * `POST /automations/check`: the builder asks this as its author types, so a save that would be
 * refused is known before it is made (and a normal save never needs a failing request).
 */
export function checkRoutes(plugin: FastifyInstance, tags: string[]): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/automations/check',
    {
      schema: {
        tags,
        summary: 'Check a draft as a save would, without saving it (Owner)',
        description:
          'Body: `workspaceId` and `definition`, the draft (the definition fields of a POST /automations body). 200 whatever the draft holds: `valid`, and the first problem a save would be refused for, with the `field` and `reason` a refused save names.',
        body: CheckBody,
        response: Responses(CheckAnswer),
      },
    },
    async (request) => {
      const { workspaceId, definition } = request.body;
      const problems = await checkDraft(app.services, app.automations, request.actor, workspaceId, definition);
      return { ok: true as const, valid: problems.length === 0, problems };
    },
  );
}
