/**
 * The schemas of the automation routes (`routes.ts`, `transfer-routes.ts`), declared once with
 * TypeBox. Responses are exact (`additionalProperties: false`) where the shape is ours: an
 * automation is what `AutomationItem` holds, a version what `VersionItem` / `VersionDetail` hold.
 *
 * The trigger and the action steps inside a definition are the exception: their fields depend on
 * their kind, and the engine validates them against the published definition schema (`GET
 * /automations/schema`, built from the engine's kind registry with `if`/`then` clauses that an
 * API document cannot carry), so they are declared here as documented free-form objects with the
 * one field every kind has, `type`.
 */

import { Type, type Static } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses } from '../../http/schemas';
import { MAX_VERSION_MESSAGE } from '../engine-host/version-save';
import { RunSchema, anyObject } from '../runs/run-schemas';

/** A definition's trigger as answered: its kind's `type` and that kind's parameters (free-form). */
export const TriggerSchema = Type.Object(
  { type: Type.String({ description: 'the trigger kind, e.g. "webhook" (GET /automations/kinds)' }) },
  {
    additionalProperties: true,
    description: "the trigger: `type` and that kind's parameters, validated by the engine against GET /automations/schema",
  },
);

/**
 * A definition's action step as answered: its kind's `type`, the simple fields every action has
 * (`id`, `name`, `disabled`; the engine's `COMMON_ACTION_PARAMETERS`) and the rest free-form.
 */
export const ActionSchema = Type.Object(
  {
    type: Type.String({ description: 'the action kind, e.g. "http.request" (GET /automations/kinds)' }),
    id: Type.Optional(Type.String({ description: 'the step id: later steps read its output as steps.<id>' })),
    name: Type.Optional(Type.String()),
    disabled: Type.Optional(Type.Boolean({ description: 'skipped: not run and not journalled, with its nested steps' })),
  },
  {
    additionalProperties: true,
    description: "an action step: `type`, `id`, the fields every action has and that kind's parameters, validated by the engine",
  },
);

/** How long finished runs are kept, in days (each 1..3650). */
const RetentionSchema = Type.Object(
  { days: Type.Optional(Type.Integer()), failedDays: Type.Optional(Type.Integer({ description: 'failed runs' })) },
  { additionalProperties: false },
);

/** The fields of a definition as answered (the engine's `AutomationDefinition`). */
const definitionProperties = {
  name: Type.String(),
  description: Type.Optional(Type.String()),
  trigger: TriggerSchema,
  actions: Type.Array(ActionSchema),
  timeoutMs: Type.Optional(Type.Integer({ description: "the run's time limit in ms, waits included" })),
  concurrency: Type.Optional(Type.Integer({ description: 'the most runs of this automation executing at once per process' })),
  retention: Type.Optional(RetentionSchema),
};

/** A definition as answered (an export's `definition`). */
export const DefinitionSchema = Type.Object(definitionProperties, {
  additionalProperties: false,
  description: 'the definition, as POST /automations takes it (see GET /automations/schema)',
});

/** Literal credentials hidden as "[redacted]" for the reader (docs "Automations", "Credentials in definitions"). */
const redactedPaths = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));

/** A person named by handle. */
const Person = Type.Object({ handle: Type.String() }, { additionalProperties: false });

/** The inbound URL of a webhook or form trigger (Owner only). */
const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    requiresToken: Type.Boolean(),
    token: Type.Optional(Type.String({ description: 'the bearer token: only in the answer that generated it' })),
    formUrl: Type.Optional(Type.String({ description: 'For a form trigger: the hosted form page' })),
  },
  { additionalProperties: false },
);

/** An automation as every automation route answers it (`AutomationItem`). Times ISO 8601. */
export const AutomationSchema = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    ...definitionProperties,
    enabled: Type.Boolean(),
    version: Type.Integer(),
    owner: Type.Object(
      { handle: Type.String() },
      { additionalProperties: false, description: 'the member the automation acts as (its creator)' },
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    webhook: Type.Optional(WebhookSchema),
    redacted: redactedPaths('for readers other than the Owner: the paths of credential values shown as "[redacted]"'),
  },
  { additionalProperties: false },
);

/** The details of one kept version (`VersionItem`). */
const versionProperties = {
  version: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  current: Type.Boolean({ description: 'whether this is the version new runs execute' }),
  author: Type.Optional(Person),
  message: Type.Optional(Type.String()),
};

/** One kept version as the list answers it. */
export const VersionSummarySchema = Type.Object(versionProperties, { additionalProperties: false });

/** One version as `GET …/versions/{version}` answers it: the definition with the version's details (`VersionDetail`). */
export const VersionDetailSchema = Type.Object(
  {
    ...definitionProperties,
    ...versionProperties,
    redacted: redactedPaths('for readers other than the Owner: the paths of credential values shown as "[redacted]"'),
  },
  { additionalProperties: false },
);

/** The definition part of a create/update body (validated in full by the engine against the published schema). */
const definitionBodyProperties = {
  name: Type.String(),
  description: Type.Optional(Type.String()),
  trigger: anyObject,
  actions: Type.Array(anyObject),
  retention: Type.Optional(
    Type.Object({ days: Type.Optional(Type.Integer()), failedDays: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
  ),
  message: Type.Optional(
    Type.String({ maxLength: MAX_VERSION_MESSAGE, description: "the version's message (not part of the definition)" }),
  ),
  timeoutMs: Type.Optional(Type.Integer()),
  concurrency: Type.Optional(Type.Integer()),
};

/** Body of `PUT /automations/{automationId}`: the definition and an optional version message. */
export const UpdateBody = Type.Object(definitionBodyProperties, { additionalProperties: false });

/** Body of `POST /automations`: where it lives, whether it starts enabled, and the definition. */
export const CreateBody = Type.Object(
  { workspaceId: Type.String({ minLength: 1 }), ...definitionBodyProperties, enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/** The definition fields of a create or update body, without the version message. */
export type DefinitionBody = Omit<Static<typeof UpdateBody>, 'message'>;

/** Query of `GET /automations`. */
export const ListQuery = Type.Object({ workspaceId: Type.String({ minLength: 1 }) });

/** Body of a test run (may be empty). */
export const TestRunBody = Type.Object({ payload: Type.Optional(anyObject) }, { additionalProperties: false });

/** Body of a restore (may be empty). */
export const RestoreBody = Type.Object(
  { message: Type.Optional(Type.String({ maxLength: MAX_VERSION_MESSAGE })) },
  { additionalProperties: false },
);

/** Path of one automation. */
export const automationParams = Params('automationId');

/** Path of one version. */
export const versionParams = Type.Object({ automationId: Type.String({ minLength: 1 }), version: Type.Integer({ minimum: 1 }) });

/** Responses of the automation list. */
export const automationsResponses = Responses(ItemsEnvelope(AutomationSchema));
/** Responses of one automation. */
export const automationResponses = Responses(ItemEnvelope(AutomationSchema));
/** Responses of a create (and an import): 402 when an inbound trigger needs a plan the account lacks. */
export const createResponses = Responses(ItemEnvelope(AutomationSchema), { 402: ErrorRef });
/** Responses of an update: 402 as a create, 412 for a stale `If-Match`. */
export const updateResponses = Responses(ItemEnvelope(AutomationSchema), { 402: ErrorRef, 412: ErrorRef });
/** Responses of a delete. */
export const deleteResponses = Responses(OkOnly);
/** Responses of a test run: the run with its steps. */
export const testRunResponses = Responses(ItemEnvelope(RunSchema));
/** Responses of the version list. */
export const versionsResponses = Responses(ItemsEnvelope(VersionSummarySchema));
/** Responses of one version. */
export const versionResponses = Responses(ItemEnvelope(VersionDetailSchema));
