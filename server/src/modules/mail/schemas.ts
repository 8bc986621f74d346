import { Type } from '@sinclair/typebox';
import { ItemEnvelope, Responses, stringEnum } from '../../http/schemas';
import { NOTIFICATION_MODES } from './preferences';

/** How a person gets one kind of notification. */
const Mode = () => stringEnum(NOTIFICATION_MODES, { description: '`immediate`, `digest` or `off`' });

/** My choice per notification kind (docs/email.md "Notifications"). */
export const MailPreferencesSchema = Type.Object(
  { assignment: Mode(), mention: Mode(), approval: Mode(), failure: Mode() },
  { additionalProperties: false },
);

/** Body of `PUT /api/v1/me/mail-preferences`: the kinds to change (the others stay). */
export const MailPreferencesBody = Type.Partial(MailPreferencesSchema, { additionalProperties: false });

/** `{ok, item: MailPreferences}`. */
export const mailPreferencesResponses = Responses(ItemEnvelope(MailPreferencesSchema));

/** Query of the unsubscribe link: its token (checked by the handler, answered with a page). */
export const UnsubscribeQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 300 })) });
