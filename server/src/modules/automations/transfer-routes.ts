import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Params, Responses } from '../../http/schemas';
import { DefinitionSchema, createResponses } from './schemas';
import { exportAutomation, importAutomation, TRANSFER_FORMAT } from './transfer';

/** `GET /automations/{id}/export`: the portable document (docs/automations.md "Export and import"). */
const AutomationDocument = Type.Object(
  {
    taskspaceAutomation: Type.Literal(TRANSFER_FORMAT, { description: 'format marker' }),
    exportedAt: Type.String({ format: 'date-time' }),
    definition: DefinitionSchema,
    redacted: Type.Optional(
      Type.Array(Type.String(), { description: 'paths in `definition` of literal credentials shown as "[redacted]"' }),
    ),
  },
  { additionalProperties: false },
);

/** The document as import takes it: the marker and a definition object (checked like a create). */
const ImportedDocument = Type.Object(
  {
    taskspaceAutomation: Type.Literal(TRANSFER_FORMAT, { description: 'format marker; other values are refused' }),
    exportedAt: Type.Optional(Type.String()),
    definition: Type.Object({}, { additionalProperties: true, description: "validated as the create body's definition" }),
    redacted: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** `POST /automations/import` body. */
const ImportBody = Type.Object(
  {
    workspaceId: Type.String({ minLength: 1 }),
    document: ImportedDocument,
    enabled: Type.Optional(Type.Boolean({ description: 'default false: an import starts disabled' })),
    name: Type.Optional(Type.String({ minLength: 1, description: "replaces the document's name" })),
  },
  { additionalProperties: false },
);

/** A file name for the download: the automation's name made safe. */
function fileNameOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'automation'}.automation.json`;
}

/**
 * Export and import of automations (docs/automations.md "Export and import"): `GET
 * /automations/{automationId}/export` (any member, as reading) and `POST /automations/import`
 * (Owner, as creating; the new automation starts disabled).
 */
export function transferRoutes(plugin: FastifyInstance, tags: string[]): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/automations/:automationId/export',
    {
      schema: {
        tags,
        summary: 'The automation as a portable JSON document (any member)',
        description:
          'The definition with a format marker, as a download (`Content-Disposition: attachment`). No ids, owner, inbound URL or token; literal credentials read "[redacted]" (listed in `redacted`).',
        params: Params('automationId'),
        response: Responses(AutomationDocument),
      },
    },
    async (request, reply) => {
      const document = await exportAutomation(svc, app.automations, request.actor, request.params.automationId);
      void reply.header('content-disposition', `attachment; filename="${fileNameOf(document.definition.name)}"`);
      return document;
    },
  );

  app.post(
    '/automations/import',
    {
      schema: {
        tags,
        summary: 'Create an automation from an exported document (Owner); disabled unless `enabled`',
        description:
          'Checked exactly as POST /automations; a validation error names the field in this body (`document.definition.actions[0].url`). A "[redacted]" value left in is 400 `reason: "redacted"`. Inbound triggers get a new URL (and token).',
        body: ImportBody,
        response: createResponses,
      },
    },
    async (request) => {
      const { workspaceId, document, enabled, name } = request.body;
      const input: Parameters<typeof importAutomation>[3] = { workspaceId, document };
      if (enabled !== undefined) input.enabled = enabled;
      if (name !== undefined) input.name = name;
      return { ok: true, item: await importAutomation(svc, app.automations, request.actor, input) };
    },
  );
}
