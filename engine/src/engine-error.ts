/** An error of an engine operation, with an HTTP-like status and a code the server reuses. */
export class EngineError extends Error {
  constructor(
    readonly status: number,
    readonly code: 'VALIDATION_ERROR' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    message: string,
    readonly details?: { field: string; reason: string },
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
