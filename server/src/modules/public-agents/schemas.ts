import { Type } from '@sinclair/typebox';
import { ItemEnvelope, OkOnly, Params, Responses, stringEnum } from '../../http/schemas';
import { AVATAR_TYPES, COMMAND_MODES } from '../agents/agent-data';
import { MEDIA_KINDS } from '../media/service';
import { ACCEPTED_PUBLIC_MODES, ACCEPTED_THEMES, PUBLIC_META_LIMITS, PUBLIC_MODES, THEMES } from './service';

/**
 * Schemas of public agents (spec 4.4 `publicAccess`, `public-agent`; README "Agents, conversations,
 * media and model providers"), declared once: the routes validate, type and document with them.
 */

/** `preferences.meta`: the public page's HTML title and description. */
const MetaSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: PUBLIC_META_LIMITS.title })),
    description: Type.Optional(Type.String({ maxLength: PUBLIC_META_LIMITS.description })),
  },
  {
    additionalProperties: false,
    description: "The public page's HTML title and description (empty or absent: the agent's name and description); PATCH merges its keys",
  },
);

/** Preferences as returned: legacy values already mapped (`chat` → `chatbot`, `system` → `auto`). */
const PreferencesSchema = Type.Object(
  {
    mode: stringEnum(PUBLIC_MODES, { description: 'template or chatbot' }),
    canCopyKnowledge: Type.Boolean(),
    hideBranding: Type.Boolean(),
    theme: stringEnum(THEMES, { description: 'light, dark or auto' }),
    autoEndChats: Type.Boolean({ description: 'Stored and returned; no public chat acts on it in this version' }),
    meta: Type.Optional(MetaSchema),
  },
  { additionalProperties: false },
);

/** Preferences as a `PATCH` body carries them: every key optional, legacy values accepted. */
const PreferencesInput = Type.Object(
  {
    mode: Type.Optional(stringEnum(ACCEPTED_PUBLIC_MODES, { description: 'template or chatbot (chat is accepted as chatbot)' })),
    canCopyKnowledge: Type.Optional(Type.Boolean()),
    hideBranding: Type.Optional(Type.Boolean()),
    theme: Type.Optional(stringEnum(ACCEPTED_THEMES, { description: 'light, dark or auto (system is accepted as auto)' })),
    autoEndChats: Type.Optional(Type.Boolean({ description: 'Stored and returned; no public chat acts on it in this version' })),
    meta: Type.Optional(MetaSchema),
  },
  { additionalProperties: false },
);

/** An agent's avatar: an emoji or an image URL. */
const AvatarSchema = Type.Object(
  { type: stringEnum(AVATAR_TYPES), data: Type.Object({ value: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);

/** The real service's `data` of a public agent: the agent's avatar. */
const PublicAgentData = Type.Object({ avatar: AvatarSchema }, { additionalProperties: false });

/** The public agent item: the real service's `{id, name, data, preferences}` plus our `space_agent_id`. */
export const PublicAgentSchema = Type.Object(
  {
    id: Type.String({ description: 'The public id (the end of publicUrl)' }),
    name: Type.String({ description: "The agent's name" }),
    data: PublicAgentData,
    space_agent_id: Type.String({ description: "The agent's id" }),
    preferences: PreferencesSchema,
  },
  { additionalProperties: false },
);

/**
 * What anyone holding a public id sees (the JSON of the public page): no agent id, folder,
 * workspace or knowledge ids; prompts only in `template` mode, knowledge names only with
 * `canCopyKnowledge`.
 */
export const PublicAgentViewSchema = Type.Object(
  {
    id: Type.String({ description: 'The public id (not the agent id)' }),
    name: Type.String(),
    data: PublicAgentData,
    description: Type.String(),
    tone: Type.String(),
    language: Type.String(),
    avatar: Type.Object(AvatarSchema.properties, {
      additionalProperties: false,
      description: 'Same as data.avatar (kept for older clients)',
    }),
    commands: Type.Array(
      Type.Object(
        { name: Type.String(), mode: stringEnum(COMMAND_MODES), prompt: Type.Optional(Type.String({ description: 'template mode only' })) },
        { additionalProperties: false },
      ),
    ),
    knowledge: Type.Optional(
      Type.Object(
        {
          projects: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false })),
          medias: Type.Array(
            Type.Object({ id: Type.String(), name: Type.String(), kind: stringEnum(MEDIA_KINDS) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false, description: 'Only when preferences.canCopyKnowledge' },
      ),
    ),
    preferences: PreferencesSchema,
  },
  { additionalProperties: false },
);

/** Path of the routes of one agent. */
export const agentParams = Params('agentId');
/** Path of a public agent by its public id (API). */
export const publicAgentParams = Params('publicAgentId');
/** Path of the public page. */
export const publicPageParams = Params('publicId');

/** Body of `PATCH /agents/{agentId}/public-agent`. */
export const PatchPublicAgentBody = Type.Object(
  { preferences: PreferencesInput },
  { additionalProperties: false, description: 'Every key of preferences is optional; absent keys keep their value' },
);

const PublicUrl = Type.String({ format: 'uri' });

/** Responses of enabling public access: the absolute public URL. */
export const publicUrlResponses = Responses(Type.Object({ ok: Type.Boolean(), publicUrl: PublicUrl }, { additionalProperties: false }));
/** Responses of disabling public access. */
export const okResponses = Responses(OkOnly);
/** Responses of the public agent of an agent: the item and its URL (404 when public access is off). */
export const publicAgentResponses = Responses(
  Type.Object({ ok: Type.Boolean(), item: PublicAgentSchema, publicUrl: PublicUrl }, { additionalProperties: false }),
);
/** Responses of a public agent by its public id: the public view and its URL. */
export const publicViewResponses = Responses(
  Type.Object({ ok: Type.Boolean(), item: PublicAgentViewSchema, publicUrl: PublicUrl }, { additionalProperties: false }),
);
/** Responses of merging preferences: the public agent. */
export const patchedResponses = Responses(ItemEnvelope(PublicAgentSchema));
