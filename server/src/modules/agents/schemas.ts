import { Type, type TSchema, type TString } from '@sinclair/typebox';
import { McpServerSchema } from '@taskspace/engine';
import {
  NO_LINE_BREAKS,
  ErrorRef,
  ItemEnvelope,
  ItemsEnvelope,
  OkOnly,
  Params,
  Responses,
  SearchablePageQuerySchema,
  singleLine,
  stringEnum,
} from '../../http/schemas';
import { AGENT_LIMITS, AVATAR_TYPES, COMMAND_MODES, LANGUAGE_PATTERN, ACCEPTED_TONES, TONES } from './agent-data';
import { AGENT_TEMPLATE_TYPES } from './templates';
import { AGENT_MCP_SERVERS_MAX } from './mcp-settings';

/**
 * Schemas of the agent routes (spec 4.3, 4.4; README "Agents, conversations, media and model
 * providers"), declared once: the routes validate, type and document with them. Limits are
 * {@link AGENT_LIMITS}, in characters.
 */

/**
 * A copy of an engine schema without the automation builder's `x-` annotations (`x-editor`),
 * which the routes' strict validator refuses as unknown keywords; TypeBox's symbols are kept.
 */
function withoutBuilderHints<T extends TSchema>(schema: T): T {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string | symbol, unknown> = {};
    for (const key of Object.keys(value)) if (!key.startsWith('x-')) out[key] = copy((value as Record<string, unknown>)[key]);
    for (const key of Object.getOwnPropertySymbols(value)) out[key] = (value as Record<symbol, unknown>)[key];
    return out;
  };
  return copy(schema) as T;
}

/** One of an agent's own MCP servers: the engine's `agent.command` entry, declared once there. */
const AgentMcpServerSchema = withoutBuilderHints(McpServerSchema);

/** A command as written by a client. */
const CommandInput = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: AGENT_LIMITS.commandId,
        description: 'Any non-empty string (generated when absent); unique within the agent',
      }),
    ),
    name: singleLine(AGENT_LIMITS.commandName),
    prompt: Type.String({ minLength: 1, maxLength: AGENT_LIMITS.prompt }),
    mode: Type.Optional(stringEnum(COMMAND_MODES)),
  },
  { additionalProperties: false },
);

/** An avatar: an emoji or an image URL. */
const AvatarInput = Type.Object(
  {
    type: stringEnum(AVATAR_TYPES),
    data: Type.Object({ value: singleLine(AGENT_LIMITS.imageUrl) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** AgentData as written by clients: every key optional (README "Agents" lists defaults). */
const AgentDataInput = Type.Object(
  {
    commands: Type.Optional(Type.Array(CommandInput, { maxItems: AGENT_LIMITS.commands })),
    description: Type.Optional(Type.String({ maxLength: AGENT_LIMITS.description })),
    tone: Type.Optional(
      stringEnum(ACCEPTED_TONES, {
        description: 'One of the 23 tones; neutral and professional are accepted and mapped (README "Agents")',
      }),
    ),
    avatar: Type.Optional(AvatarInput),
    knowledgeEnabled: Type.Optional(Type.Boolean()),
    language: Type.Optional(Type.String({ maxLength: AGENT_LIMITS.language, pattern: LANGUAGE_PATTERN })),
    inputPlaceholder: Type.Optional(Type.String({ maxLength: AGENT_LIMITS.inputPlaceholder, pattern: NO_LINE_BREAKS })),
    mcpServers: Type.Optional(
      Type.Array(AgentMcpServerSchema, {
        maxItems: AGENT_MCP_SERVERS_MAX,
        description:
          "The agent's own MCP servers, whose tools its agent.command steps offer after the step's own (docs/mcp.md): a written-out URL, token only as a {{ secrets.NAME }} reference, or connectionId; replaces the list; changing it needs the Owner role",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Body of `POST /folders/{folderId}/agents`. */
export const CreateAgentBody = Type.Object(
  {
    name: singleLine(AGENT_LIMITS.name),
    data: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(singleLine(AGENT_LIMITS.type)),
          data: Type.Optional(AgentDataInput),
          template: Type.Optional(
            Type.Object(
              { type: stringEnum(AGENT_TEMPLATE_TYPES), avatar: Type.Optional(AvatarInput) },
              {
                additionalProperties: false,
                description: "A built-in template to start from (with type: 'template'); avatar replaces the template's",
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Body of `PATCH /agents/{agentId}`: data merges key by key; commands replace the list. */
export const PatchAgentBody = Type.Object(
  { name: Type.Optional(singleLine(AGENT_LIMITS.name)), data: Type.Optional(AgentDataInput) },
  { additionalProperties: false },
);

/** Body of `POST /folders/{folderId}/agent-generate`: the description to generate from. */
export const GenerateAgentBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: AGENT_LIMITS.generationText }) },
  { additionalProperties: false },
);

/** Body of a knowledge attachment: `{projectId}` or `{mediaId}`. */
export function knowledgeBody<K extends string>(key: K) {
  return Type.Object({ [key]: Type.String({ minLength: 1 }) } as Record<K, TString>, { additionalProperties: false });
}

/** A stored command: the service gives each an id and a mode when it is saved. */
const AgentCommandSchema = Type.Object(
  { id: Type.String(), name: Type.String(), prompt: Type.String(), mode: stringEnum(COMMAND_MODES) },
  { additionalProperties: false },
);

/**
 * The agent item (README "Agents, conversations, media and model providers", "Agents"). Every
 * AgentData field is present: absent ones come back with their defaults (`defaultAgentData`).
 */
export const AgentSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    space_id: Type.String(),
    type: Type.String(),
    data: Type.Object(
      {
        commands: Type.Array(AgentCommandSchema),
        description: Type.String(),
        /** Legacy tones come back mapped (`normalizeTone`). */
        tone: stringEnum(TONES),
        avatar: Type.Object(
          { type: stringEnum(AVATAR_TYPES), data: Type.Object({ value: Type.String() }, { additionalProperties: false }) },
          { additionalProperties: false },
        ),
        knowledgeEnabled: Type.Boolean(),
        language: Type.String(),
        inputPlaceholder: Type.String(),
        mcpServers: Type.Array(AgentMcpServerSchema),
      },
      { additionalProperties: false },
    ),
    knowledge: Type.Object({ projects: Type.Array(Type.String()), medias: Type.Array(Type.String()) }, { additionalProperties: false }),
    publicAccess: Type.Boolean({
      description:
        'Read-only: whether public access is on, i.e. whether GET /agents/{agentId}/public-agent has a page to answer (404 while off); PUT and DELETE /agents/{agentId}/publicAccess change it',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** Path of the folder agent routes. */
export const folderParams = Params('folderId');
/** Path of one agent. */
export const agentParams = Params('agentId');
/** Query of a folder's agent list: a page and the `search` name filter. */
export const agentListQuery = SearchablePageQuerySchema(20);

/** Responses of one agent. */
export const agentResponses = Responses(ItemEnvelope(AgentSchema));
/** Responses of agent generation: 502 when the model provider fails. */
export const generateResponses = Responses(ItemEnvelope(AgentSchema), { 502: ErrorRef });
/** Responses of a folder's agent list. */
export const agentsResponses = Responses(ItemsEnvelope(AgentSchema));
/** Responses of deletions. */
export const okResponses = Responses(OkOnly);
