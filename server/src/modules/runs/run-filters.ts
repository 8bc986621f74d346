import { badRequest } from '../../errors';

/**
 * A run-list time filter (`createdFrom`, `createdBefore`: ISO 8601 date-times) in ms since the
 * epoch, or undefined when absent.
 * @throws ServiceError 400 VALIDATION_ERROR, reason `invalid_format`, naming the field.
 */
export function timeFilter(field: 'createdFrom' | 'createdBefore', value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(field, 'invalid_format', `${field} must be an ISO 8601 date-time`);
  return ms;
}
