import { ServiceError } from '../errors';

/**
 * How deep a JSON text nests (objects and arrays), found by one iterative pass over the text —
 * nothing recursive runs over a body before this check has passed (docs "API notes", "Request
 * limits"). Stops counting once `limit` is passed.
 * @returns the depth, or `limit + 1` when it is deeper than `limit`.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return deepest;
}

/**
 * Refuses a JSON text nesting deeper than `limit` levels.
 * @throws ServiceError 400 VALIDATION_ERROR `{field: 'body', reason: 'too_deep'}`.
 */
export function assertJsonDepth(text: string, limit: number): void {
  if (jsonDepth(text, limit) > limit) {
    throw new ServiceError(400, 'VALIDATION_ERROR', `the JSON body nests deeper than ${limit} levels`, {
      field: 'body',
      reason: 'too_deep',
    });
  }
}
