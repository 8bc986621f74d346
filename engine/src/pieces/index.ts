/**
 * Activepieces pieces as Taskspace kinds (docs/integrations.md): the manifest of what pieces
 * declare, their properties as parameter schemas, the action kinds made from them, the worker
 * pool that runs them contained, and the runner that connects a call to the host's ports.
 */
export * from './manifest';
export { propSchema, propsObject, coerceProp, coerceProps } from './props';
export {
  pieceKinds,
  pieceActionKinds,
  pieceTriggerKinds,
  pieceKindType,
  needsConnection,
  actionParameters,
  type PieceStepParams,
} from './kinds';
export { PiecePool, type PiecePoolOptions, type PieceCallHandlers } from './pool';
export {
  PieceRunner,
  pieceAuth,
  secretStrings,
  authOf,
  type PieceHost,
  type PieceCall,
  type ConnectionValue,
  type ResolvedConnection,
} from './runner';
export type { PieceCallContext, PieceOperation, PieceWebhookPayload, PieceFileValue } from './protocol';
export { PIECE_FILE_MAX_BYTES, mediaReference, extensionOf, type PieceFiles, type PieceMediaFile } from './files';
