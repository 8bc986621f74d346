import { Type } from '@sinclair/typebox';
import { Params } from '../../../http/schemas';

/**
 * Schemas of the hosted forms (`GET` and `POST /forms/<id>`, docs "Automations", "Form trigger"),
 * declared once: the routes validate and type with them. A post's answers are the inbound call's
 * (`INBOUND_RESPONSES` in `inbound/schemas.ts`).
 */

/** Path of a form page. */
export const formParams = Params('formId');

/** Query of a form page or post: the form's token, when it requires one (at most 256 characters). */
export const FormQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false });
