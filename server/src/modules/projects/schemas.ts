import { Type, type Static } from '@sinclair/typebox';
import {
  ErrorRef,
  ItemEnvelope,
  ItemsEnvelope,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  OkOnly,
  PageQuerySchema,
  PageQueryWith,
  Params,
  Responses,
  singleLine,
  stringEnum,
} from '../../http/schemas';
import { FolderSchema } from '../folders/schemas';
import { CONTENT_TYPES, MAX_PROJECT_NAME } from './markdown-import';
import { MAX_MEMBER_HANDLES } from './members';
import { MY_PROJECTS_SORTS } from './service';
import { ProjectSchema } from './item';

/**
 * Schemas of the project routes (spec section 4.2, the folder lists of 4.3, `GET /me/projects`;
 * README "Projects, templates, share links and custom fields"), declared once with TypeBox: the
 * routes validate, type and document with them.
 */

/** The project item: declared once, with its row mapper, in `item.ts`. */
export { ProjectSchema };

/** A person with access to a project; `projectMember` when added explicitly (`PUT .../members`). */
const ProjectMemberSchema = Type.Object(
  { handle: Type.String(), displayName: Type.String(), projectMember: Type.Boolean() },
  { additionalProperties: false },
);

/** An explicit project member (spec section 2, Member). */
const ExplicitMemberSchema = Type.Object({ handle: Type.String(), displayName: Type.String() }, { additionalProperties: false });

/** Largest `content`, in characters (the default body limit is 1 MiB, so larger bodies get 413 first). */
const MAX_CONTENT = 1_048_576;

/** A non-empty id in a body. */
const id = () => Type.String({ minLength: 1 });

/** The content of a new project: markdown or plain text, optionally a template. */
const contentProperties = {
  contentType: stringEnum(CONTENT_TYPES),
  content: Type.String({ maxLength: MAX_CONTENT }),
  isTemplate: Type.Optional(Type.Boolean()),
};

/** Path with a project id. */
export const projectParams = Params('projectId');
/** Path with a workspace id. */
export const workspaceParams = Params('workspaceId');
/** Path with a folder id. */
export const folderParams = Params('folderId');
/** Path of one explicit member. */
export const memberParams = Params('projectId', 'handle');

/** Body of `POST /projects`: the folder and the content. */
export const CreateProjectBody = Type.Object({ folderId: id(), ...contentProperties }, { additionalProperties: false });
/** Body of `POST /workspaces/{workspaceId}/projects`: the content. */
export const CreateWorkspaceProjectBody = Type.Object(contentProperties, { additionalProperties: false });
/** Body of `POST /projects/from-template`. */
export const FromTemplateBody = Type.Object({ folderId: id(), templateId: id() }, { additionalProperties: false });
/** Body of `POST /projects/{projectId}/copy`: the target folder, an optional name and template flag. */
export const CopyProjectBody = Type.Object(
  { folderId: id(), projectTitle: Type.Optional(singleLine(MAX_PROJECT_NAME)), isTemplate: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
/** Body of `PUT /projects/{projectId}/members`: 1..{@link MAX_MEMBER_HANDLES} handles. */
export const AddMembersBody = Type.Object(
  { handles: Type.Array(singleLine(39), { minItems: 1, maxItems: MAX_MEMBER_HANDLES }) },
  { additionalProperties: false },
);

/** Body of `PATCH /projects/{projectId}`: a new name, a folder of the same workspace to move to, or both. */
export const projectPatchBody = Type.Object(
  { name: Type.Optional(singleLine(MAX_PROJECT_NAME)), folderId: Type.Optional(id()) },
  { additionalProperties: false, minProperties: 1 },
);
/** A project patch as validated. */
export type ProjectPatch = Static<typeof projectPatchBody>;

/** Body of `PATCH /folders/{folderId}`: the folder's new name. */
export const folderPatchBody = Type.Object({ name: singleLine(200) }, { additionalProperties: false });

/** The `search` filter: a case-insensitive substring of the name, 1..{@link MAX_SEARCH_LENGTH} characters. */
const search = () => Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SEARCH_LENGTH }));

/** Query of a project's members: a page of 20 by default. */
export const membersQuery = PageQuerySchema(20);
/** Query of the folder's templates: a page of 20 by default. */
export const templatesQuery = PageQuerySchema(20);
/** Query of `GET /me/projects`: a page (100 by default), `search`, and `sort` (default `viewed-desc`). */
export const myProjectsQuery = PageQueryWith(100, { search: search(), sort: stringEnum(MY_PROJECTS_SORTS, { default: 'viewed-desc' }) });
/** Query of a folder's projects: every one unless `limit` is given (no default), then `page` (default 1); `search`. */
export const folderProjectsQuery = PageQueryWith(MAX_PAGE_SIZE, {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  search: search(),
});

/** Responses of one project. */
export const projectResponses = Responses(ItemEnvelope(ProjectSchema));
/** Responses of a project list. */
export const projectsResponses = Responses(ItemsEnvelope(ProjectSchema));
/** Responses of a deletion. */
export const okResponses = Responses(OkOnly);
/** Responses of the member list. */
export const membersResponses = Responses(ItemsEnvelope(ProjectMemberSchema));
/** Responses of adding members: the explicit members after the change; 409 on a completed project. */
export const addMembersResponses = Responses(ItemsEnvelope(ExplicitMemberSchema), { 409: ErrorRef });
/** Responses of removing a member; 409 on a completed project. */
export const removeMemberResponses = Responses(OkOnly, { 409: ErrorRef });
/** Responses of a folder rename. */
export const folderResponses = Responses(ItemEnvelope(FolderSchema));
