import { badRequest } from '../errors';

/** Largest page size of every list, page- or cursor-based (README "Pagination"). */
export const MAX_PAGE_SIZE = 500;

/**
 * Largest page number of page-based lists. It bounds the SQL offset (at most 500 million rows)
 * and refuses values such as `1e400`, which JSON-schema coercion turns into Infinity.
 */
export const MAX_PAGE_NUMBER = 1_000_000;

/** Default page size of the cursor lists (spec section 8; README "Pagination"). */
export const CURSOR_DEFAULT_LIMIT = 100;

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

/** A page-based list request (spec section 8: page numbers start at 1). */
export interface PageRequest {
  /** Items per page, 1..{@link MAX_PAGE_SIZE}. */
  limit: number;
  /** Page number, 1..{@link MAX_PAGE_NUMBER}. */
  page: number;
}

/**
 * SQLite `LIMIT`/`OFFSET` for a page, after checking both values (the HTTP schemas check them too,
 * but query coercion lets `page=1e400` through as Infinity, and engine callers skip HTTP).
 * @throws ServiceError 400 (field `limit` or `page`, reason `invalid_type`, `too_small` or `too_large`).
 */
export function pageWindow(request: PageRequest): [limit: number, offset: number] {
  const limit = checkPageLimit(request.limit);
  const { page } = request;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE_NUMBER) {
    // Infinity (from `page=1e400`) is too large, not a type error.
    const reason = page > MAX_PAGE_NUMBER ? 'too_large' : page < 1 ? 'too_small' : 'invalid_type';
    throw badRequest('page', reason, `page must be an integer from 1 to ${MAX_PAGE_NUMBER}`);
  }
  return [limit, (page - 1) * limit];
}
