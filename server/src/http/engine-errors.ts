import { EngineError } from '@taskspace/engine';
import { ServiceError } from '../errors';

/**
 * The {@link ServiceError} for an engine error (it carries the same status, code and details),
 * or `error` itself when it is not one. Used by the automation API and by the app's error handler,
 * so an engine error never surfaces as a 500.
 */
export function fromEngineError(error: unknown): unknown {
  return error instanceof EngineError ? new ServiceError(error.status, error.code, error.message, error.details) : error;
}
