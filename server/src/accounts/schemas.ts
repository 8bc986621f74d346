/**
 * TypeBox schemas of the account routes (docs/accounts.md): sign-in and sessions, the password,
 * setup links, invitations and members, personal access tokens. Handlers are typed from these
 * through `withTypeProvider<TypeBoxTypeProvider>()` (issue 23); the objects we answer with are exact.
 */
import { Type } from '@sinclair/typebox';
import { ROLES } from '../auth/roles';
import { TOKEN_SCOPES } from '../auth/tokens';
import {
  ErrorRef,
  ItemEnvelope,
  ItemsEnvelope,
  NO_LINE_BREAKS,
  OkOnly,
  Params,
  Responses,
  nullable,
  singleLine,
  stringEnum,
} from '../http/schemas';
import { MeSchema } from '../modules/workspaces/schemas';

/** Longest password accepted by a body, in characters (the policy's own limit is lower; see passwords.ts). */
const MAX_PASSWORD_FIELD = 4096;
/** Longest invitation or setup link token, in characters. */
const MAX_LINK_TOKEN = 200;
/** Longest email, in characters. */
const MAX_EMAIL = 254;
/** Longest handle, in characters. */
const MAX_HANDLE = 39;

const dateTime = () => Type.String({ format: 'date-time' });
const password = () => Type.String({ maxLength: MAX_PASSWORD_FIELD });
const linkToken = () => Type.String({ maxLength: MAX_LINK_TOKEN });

/** `{ok: true}` and the common errors. */
export const okResponses = Responses(OkOnly);
/** `{ok: true}`, the common errors and 409 CONFLICT (e.g. the last Owner). */
export const okOrConflictResponses = Responses(OkOnly, { 409: ErrorRef });

/* Sign-in and sessions. */

/** Body of `POST /api/v1/auth/sign-in`: a handle or email, and the password. */
export const SignInBody = Type.Object(
  { login: Type.String({ minLength: 1, maxLength: MAX_EMAIL }), password: password() },
  { additionalProperties: false },
);

/** A started session: its id, when it ends at the latest, and the account signed in. */
export const SignedInSchema = Type.Object(
  {
    sessionId: Type.String(),
    expiresAt: dateTime(),
    user: Type.Object({ id: Type.String(), handle: Type.String(), displayName: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** Responses of `POST /api/v1/auth/sign-in`. */
export const signInResponses = Responses(ItemEnvelope(SignedInSchema));

/**
 * Answer of the session probe, `GET /api/v1/auth/session`: `signedIn` and, when true, the caller as
 * `GET /api/v1/me` returns it (`item`). 200 either way, so a signed-out browser logs no failed request.
 */
export const SessionProbeSchema = Type.Object(
  { ok: Type.Boolean(), signedIn: Type.Boolean(), item: Type.Optional(MeSchema) },
  { additionalProperties: false },
);
/** Responses of `GET /api/v1/auth/session`. */
export const sessionProbeResponses = Responses(SessionProbeSchema);

/** One of my live sessions; `expiresAt` is the earlier of idle and absolute expiry, `current` marks the caller's. */
export const SessionSchema = Type.Object(
  {
    id: Type.String(),
    userAgent: nullable(Type.String()),
    createdAt: dateTime(),
    lastUsedAt: dateTime(),
    expiresAt: dateTime(),
    current: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Responses of `GET /api/v1/auth/sessions`. */
export const sessionsResponses = Responses(ItemsEnvelope(SessionSchema));

/** Path of `DELETE /api/v1/auth/sessions/{sessionId}`. */
export const SessionParams = Params('sessionId');

/** Body of `POST /api/v1/auth/password`. */
export const PasswordChangeBody = Type.Object({ currentPassword: password(), newPassword: password() }, { additionalProperties: false });

/** Body of `POST /api/v1/auth/password/forgot`: the handle or email of the account. */
export const ForgotPasswordBody = Type.Object(
  { login: Type.String({ minLength: 1, maxLength: MAX_EMAIL }) },
  { additionalProperties: false },
);

/** Body of `POST /api/v1/auth/password/reset`: the mailed link's token and the new password. */
export const ResetPasswordBody = Type.Object({ token: linkToken(), password: password() }, { additionalProperties: false });

/* The account's email address (docs "Your email address"). */

/** The caller's confirmed address and the one a mailed link would confirm (`GET /api/v1/me/email`). */
export const EmailStatusSchema = Type.Object(
  { email: nullable(Type.String()), pendingEmail: nullable(Type.String()) },
  { additionalProperties: false },
);

/** Responses of `GET`/`POST /api/v1/me/email` and `POST /api/v1/auth/email/verify`. */
export const emailStatusResponses = Responses(ItemEnvelope(EmailStatusSchema), { 409: ErrorRef });

/** Body of `POST /api/v1/me/email`: the new address and the current password. */
export const EmailChangeBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: MAX_EMAIL }), currentPassword: password() },
  { additionalProperties: false },
);

/** Body of `POST /api/v1/auth/email/verify`: the mailed link's token. */
export const EmailVerifyBody = Type.Object({ token: linkToken() }, { additionalProperties: false });

/* Setup links and sign-up through an invitation (no credential). */

/** Query of the hidden `GET /setup` page: the link token, checked by the page itself (an HTML answer, never a 400 envelope). */
export const SetupPageQuery = Type.Object({ token: Type.Optional(Type.Unknown()) });

/** Body of `POST /api/v1/auth/setup`. */
export const SetupBody = Type.Object({ token: linkToken(), password: password() }, { additionalProperties: false });

/** Body of `POST /api/v1/auth/invitations/preview` and `POST /api/v1/invitations/accept`. */
export const InvitationTokenBody = Type.Object({ token: linkToken() }, { additionalProperties: false });

/** What an invitation offers, for the invitation page. */
export const InvitationPreviewSchema = Type.Object(
  {
    workspaceName: Type.String(),
    role: Type.String(),
    email: nullable(Type.String()),
    handle: nullable(Type.String()),
    expiresAt: dateTime(),
  },
  { additionalProperties: false },
);

/** Responses of `POST /api/v1/auth/invitations/preview`. */
export const invitationPreviewResponses = Responses(ItemEnvelope(InvitationPreviewSchema));

/** Body of `POST /api/v1/auth/invitations/accept`: the new account's handle, password and optional display name (one line, ≤ 100 characters). */
export const SignUpBody = Type.Object(
  {
    token: linkToken(),
    handle: Type.String({ maxLength: MAX_HANDLE }),
    password: password(),
    displayName: Type.Optional(Type.String({ maxLength: 100, pattern: NO_LINE_BREAKS })),
  },
  { additionalProperties: false },
);

/** Responses of `POST /api/v1/auth/invitations/accept`: the new account and the membership it got. */
export const signUpResponses = Responses(
  ItemEnvelope(
    Type.Object(
      { userId: Type.String(), handle: Type.String(), workspaceId: Type.String(), role: Type.String() },
      { additionalProperties: false },
    ),
  ),
);

/* Members and invitations. */

/** A workspace member and their role. */
export const MemberSchema = Type.Object(
  { userId: Type.String(), handle: Type.String(), displayName: Type.String(), role: Type.String() },
  { additionalProperties: false },
);

/** Responses of `GET /workspaces/{workspaceId}/members`. */
export const membersResponses = Responses(ItemsEnvelope(MemberSchema));

/** Path of a workspace's members and invitations. */
export const WorkspaceParams = Params('workspaceId');
/** Path of one member, by handle. */
export const MemberParams = Params('workspaceId', 'handle');
/** Path of one invitation. */
export const InvitationParams = Params('workspaceId', 'invitationId');

/** Body of `PATCH /workspaces/{workspaceId}/members/{handle}`. */
export const MemberRoleBody = Type.Object({ role: stringEnum(ROLES) }, { additionalProperties: false });

/** Body of `POST /workspaces/{workspaceId}/invitations`: the role and exactly one of email and handle (checked by the service). */
export const InvitationBody = Type.Object(
  {
    role: stringEnum(ROLES),
    email: Type.Optional(Type.String({ maxLength: MAX_EMAIL })),
    handle: Type.Optional(Type.String({ maxLength: MAX_HANDLE })),
  },
  { additionalProperties: false },
);

const invitationProperties = {
  id: Type.String(),
  workspaceId: Type.String(),
  role: Type.String(),
  email: nullable(Type.String()),
  handle: nullable(Type.String()),
  createdAt: dateTime(),
  expiresAt: dateTime(),
};

/** A pending invitation as Owners list it: never its token. */
export const InvitationSchema = Type.Object(invitationProperties, { additionalProperties: false });

/** An invitation as made: its `token` and `url` (`<public URL>/invite?token=…`) are in this answer only. */
export const CreatedInvitationSchema = Type.Object(
  {
    ...invitationProperties,
    token: Type.String(),
    url: Type.String(),
    mailed: Type.Boolean({ description: 'true when the link was mailed to the invited email (mail configured); else copy `url` by hand' }),
  },
  { additionalProperties: false },
);

/** Responses of `POST /workspaces/{workspaceId}/invitations`. */
export const createdInvitationResponses = Responses(ItemEnvelope(CreatedInvitationSchema));
/** Responses of `GET /workspaces/{workspaceId}/invitations`. */
export const invitationsResponses = Responses(ItemsEnvelope(InvitationSchema));

/** Responses of `POST /invitations/accept`: the workspace joined and the role held there. */
export const acceptedResponses = Responses(
  ItemEnvelope(Type.Object({ workspaceId: Type.String(), role: Type.String() }, { additionalProperties: false })),
);

/* Personal access tokens. */

const tokenProperties = {
  id: Type.String(),
  name: Type.String(),
  scope: stringEnum(TOKEN_SCOPES),
  createdAt: dateTime(),
  lastUsedAt: nullable(dateTime()),
  expiresAt: nullable(dateTime()),
  expired: Type.Boolean(),
};

/** One of my personal access tokens: never the token itself. */
export const TokenInfoSchema = Type.Object(tokenProperties, { additionalProperties: false });

/** A member's token as their workspace's Owners list it: with whose it is. */
export const MemberTokenInfoSchema = Type.Object(
  { ...tokenProperties, user: Type.Object({ id: Type.String(), handle: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);

/** A token as made: the `token` (`tsk_…`) is in this answer only. */
export const CreatedTokenSchema = Type.Object({ ...tokenProperties, token: Type.String() }, { additionalProperties: false });

/** Body of `POST /tokens`: a one-line name (1..100 characters), the scope (default `write`), when it expires (default never). */
export const CreateTokenBody = Type.Object(
  { name: singleLine(100), scope: Type.Optional(stringEnum(TOKEN_SCOPES)), expiresAt: Type.Optional(dateTime()) },
  { additionalProperties: false },
);

/** Path of one token. */
export const TokenParams = Params('tokenId');

/** Responses of `POST /tokens`. */
export const createdTokenResponses = Responses(ItemEnvelope(CreatedTokenSchema));
/** Responses of `GET /tokens`. */
export const tokensResponses = Responses(ItemsEnvelope(TokenInfoSchema));
/** Responses of `GET /workspaces/{workspaceId}/tokens`. */
export const memberTokensResponses = Responses(ItemsEnvelope(MemberTokenInfoSchema));
