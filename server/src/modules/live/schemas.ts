import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemsEnvelope, Params, Responses } from '../../http/schemas';

/** Query of `GET /live`: `projectId` makes the stream watch that project's presence (docs "API", "Presence"). */
export const LiveQuery = Type.Object({
  projectId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'A project the caller may read (Viewer): while the stream is open the caller is present on it, and the stream sends `presence` events for it. 404/403 as `GET /projects/{projectId}`.',
    }),
  ),
});

/** Responses of `GET /live`. */
export const liveResponses = {
  200: { description: 'The event stream', content: { 'text/event-stream': { schema: Type.String() } } },
  400: ErrorRef,
  401: ErrorRef,
  403: ErrorRef,
  404: ErrorRef,
  429: ErrorRef,
};

/** A person who has a project open: by handle and display name, as the API shows people to members. */
export const PresentPersonSchema = Type.Object({ handle: Type.String(), displayName: Type.String() }, { additionalProperties: false });

/** Path of `GET /projects/{projectId}/presence`. */
export const presenceParams = Params('projectId');

/** Responses of `GET /projects/{projectId}/presence`: the people present, in the order they arrived. */
export const presenceResponses = Responses(ItemsEnvelope(PresentPersonSchema));
