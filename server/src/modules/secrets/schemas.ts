import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses, nullable } from '../../http/schemas';
import { SECRET_MAX_LENGTH, SECRET_NAME_PATTERN } from './service';

/** An automation that reads a secret. */
const SecretUserSchema = Type.Object({ id: Type.String(), name: Type.String(), enabled: Type.Boolean() }, { additionalProperties: false });

/**
 * A secret as listed (docs/automations.md "Secrets"): never its value. `created` only in the
 * answer to `PUT` (true when the name was new).
 */
export const SecretSchema = Type.Object(
  {
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: nullable(Type.String()),
    usedBy: Type.Array(SecretUserSchema),
    created: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Path of the secret list. */
export const workspaceParams = Params('workspaceId');

/** Path of one secret: the workspace and the secret's name. */
export const SecretParams = Type.Object({
  workspaceId: Type.String({ minLength: 1 }),
  name: Type.String({ pattern: SECRET_NAME_PATTERN }),
});

/** Body of `PUT .../secrets/{name}`: the value, at most {@link SECRET_MAX_LENGTH} characters. */
export const SetSecretBody = Type.Object({ value: Type.String({ maxLength: SECRET_MAX_LENGTH }) }, { additionalProperties: false });

/** Responses of the secret list. */
export const secretsResponses = Responses(ItemsEnvelope(SecretSchema));
/** Responses of setting a secret. */
export const secretResponses = Responses(ItemEnvelope(SecretSchema));
/** Responses of deleting a secret (409 with the automations that read it). */
export const deleteSecretResponses = Responses(OkOnly);
