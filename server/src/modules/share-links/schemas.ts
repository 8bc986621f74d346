import { Type } from '@sinclair/typebox';
import { ItemEnvelope, OkOnly, Params, Responses, nullable, stringEnum } from '../../http/schemas';
import { SHARE_MODES } from './service';

/**
 * Schemas of a project's share link (README "Projects, templates, share links and custom fields",
 * "Share links") and of the public share pages, declared once: the routes validate, type and document with them.
 */

/** The three share URLs, absolute (see `ShareLink`). */
export const ShareLinkSchema = Type.Object(
  {
    checkUrl: Type.String({ format: 'uri' }),
    editUrl: Type.String({ format: 'uri' }),
    viewUrl: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false },
);

/** Path of the share link routes. */
export const projectParams = Params('projectId');

/** Responses of `GET .../shareLink`: the link, or `item: null` while none is enabled (as the real service answers). */
export const maybeShareLinkResponses = Responses(
  ItemEnvelope(nullable(ShareLinkSchema, { description: 'null while the share link is not enabled' })),
);
/** Responses of enabling the share link. */
export const shareLinkResponses = Responses(ItemEnvelope(ShareLinkSchema));
/** Responses of disabling the share link. */
export const disableResponses = Responses(OkOnly);

/** Path of a public share page: the token (at most 64 characters) and one of the modes of {@link SHARE_MODES}. */
export const sharePageParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 64 }),
  mode: stringEnum(SHARE_MODES),
});
