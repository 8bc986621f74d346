/**
 * The `multipart` body of the `http.request` step (docs/automations.md "HTTP Request: multipart
 * bodies"): text fields and files from the workspace's media. The engine renders the parts and
 * hands media ids to the host's {@link Http} port, which reads the bytes and encodes the body.
 */
import { Type } from '@sinclair/typebox';
import { permanent } from '../../../errors';
import { OneOf, Template } from '../../parts';
import type { HttpMultipartPart } from '../../../ports';
import type { Scope, Templates } from '../../../templates';

/** Most parts of one multipart body. */
export const MAX_MULTIPART_PARTS = 50;

/** A part's name: no quotes nor line breaks (it goes into a `Content-Disposition` header). */
const partName = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^"\\r\\n]*$', title: 'Name' });

/** The `multipart` alternative of the `http.request` body (TypeBox, with the builder's annotations). */
export const MultipartBodySchema = Type.Object(
  {
    type: Type.Literal('multipart', { title: 'Body type' }),
    parts: Type.Array(
      OneOf(
        [
          Type.Object({ name: partName, value: Template({ title: 'Value' }) }, { additionalProperties: false, title: 'Text field' }),
          Type.Object(
            {
              name: partName,
              mediaId: Template({
                title: 'Media',
                description: "The id of a media item of the automation's workspace.",
                examples: ['{{ trigger.mediaId }}'],
              }),
              filename: Type.Optional(Template({ title: 'File name', description: "Default: the media item's name." })),
            },
            { additionalProperties: false, title: 'File from media' },
          ),
        ],
        { title: 'Part' },
      ),
      { minItems: 1, maxItems: MAX_MULTIPART_PARTS, title: 'Parts' },
    ),
  },
  { additionalProperties: false, title: 'Multipart (form-data with files)' },
);

/**
 * A `multipart/form-data` body as written in a definition: text fields (`value`, a template) and
 * files from the workspace's media (`mediaId`, a template; `filename` overrides the media's name).
 */
export interface MultipartBody {
  type: 'multipart';
  parts: ({ name: string; value: string } | { name: string; mediaId: string; filename?: string })[];
}

/** Characters a part's name or file name must not hold (they go into a `Content-Disposition` header). */
const UNSAFE = /[\r\n"]/;

/**
 * Renders a multipart body's parts (`field` names the failing one, e.g. `body.parts[1].mediaId`).
 * @throws ActionError INVALID_INPUT for a part or file name with a quote or a line break, or a
 *   media id rendered empty; a template error.
 */
export function renderMultipart(body: MultipartBody, s: Scope, t: Templates): HttpMultipartPart[] {
  return body.parts.map((part, i) => {
    const field = `body.parts[${i}]`;
    if (UNSAFE.test(part.name))
      throw permanent('INVALID_INPUT', `${field}.name must not contain quotes or line breaks`, { field: `${field}.name` });
    if ('value' in part) return { name: part.name, value: t.render(part.value, s, `${field}.value`) };
    const mediaId = t.render(part.mediaId, s, `${field}.mediaId`).trim();
    if (mediaId === '') throw permanent('INVALID_INPUT', `${field}.mediaId rendered to an empty string`, { field: `${field}.mediaId` });
    const out: HttpMultipartPart = { name: part.name, mediaId };
    if (part.filename !== undefined) {
      const filename = t.render(part.filename, s, `${field}.filename`);
      if (UNSAFE.test(filename))
        throw permanent('INVALID_INPUT', `${field}.filename must not contain quotes or line breaks`, { field: `${field}.filename` });
      if (filename !== '') out.filename = filename;
    }
    return out;
  });
}
