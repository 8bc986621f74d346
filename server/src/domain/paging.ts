import { badRequest } from '../errors';

/** Largest page size of every list, page- or cursor-based (README "Pagination"). */
export const MAX_PAGE_SIZE = 500;

/**
 * Checks a page size for callers that do not come through the HTTP schemas (the automation engine).
 * @returns `limit`, an integer from 1 to {@link MAX_PAGE_SIZE}.
 * @throws ServiceError 400 (field `limit`, reason `invalid_type`, `too_small` or `too_large`).
 */
export function checkPageLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    const reason = !Number.isInteger(limit) ? 'invalid_type' : limit < 1 ? 'too_small' : 'too_large';
    throw badRequest('limit', reason, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}
