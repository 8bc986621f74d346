import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, PageQuerySchema, Params, Responses, nullable } from '../../http/schemas';
import { COMMENTS_DEFAULT_LIMIT, MAX_COMMENT_LENGTH } from './service';

/** The author of a comment: a member's handle and display name. */
const AuthorSchema = Type.Object({ handle: Type.String(), displayName: Type.String() }, { additionalProperties: false });

/** A comment on a task (README "Tasks", comments); `author` null once their account is gone. */
export const CommentSchema = Type.Object(
  {
    id: Type.String(),
    taskId: Type.String(),
    text: Type.String(),
    author: nullable(AuthorSchema),
    createdAt: Type.String({ description: 'ISO 8601' }),
  },
  { additionalProperties: false },
);

/** Path of the comment routes. */
export const taskParams = Params('projectId', 'taskId');

/** Body of `POST .../comments`: 1..{@link MAX_COMMENT_LENGTH} characters, line breaks allowed. */
export const AddCommentBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'May span several lines' }) },
  { additionalProperties: false },
);

/** Query of the comment list. */
export const commentsQuery = PageQuerySchema(COMMENTS_DEFAULT_LIMIT);

/** Responses of adding a comment. */
export const commentResponses = Responses(ItemEnvelope(CommentSchema));
/** Responses of the comment list. */
export const commentsResponses = Responses(ItemsEnvelope(CommentSchema));
