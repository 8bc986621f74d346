import type { AutomationRecord } from '@taskspace/engine';
import { ServiceError } from '../../errors';

/**
 * What the API adds to one save of an automation (docs "Automations", "Versions"): who saved the
 * version, its optional message, and for a `PUT` with `If-Match` the version the caller last
 * read. It rides on the record's `meta` (key `save`) from the service to the run store, which
 * writes it in the transaction of the save and never stores it in `meta_json`.
 */
export interface VersionSave {
  /** The user saving the version. */
  authorId: string;
  /** The save's message (at most {@link MAX_VERSION_MESSAGE} characters). */
  message?: string;
  /** `If-Match`: the save applies only while the automation is still at this version. */
  ifVersion?: number;
}

/** Longest version message, in characters. */
export const MAX_VERSION_MESSAGE = 500;

/** `meta` with the save's details attached for the run store. */
export function withSave(meta: Record<string, unknown>, save: VersionSave): Record<string, unknown> {
  return { ...meta, save };
}

/** The save's details an automation record carries, if any. */
export function saveOf(a: AutomationRecord): VersionSave | undefined {
  return a.meta.save as VersionSave | undefined;
}

/** The definition's run retention override as the `automations` columns store it: [days, failedDays], null when unset. */
export function retentionColumns(a: AutomationRecord): [number | null, number | null] {
  const r = a.definition.retention;
  return [r?.days ?? null, r?.failedDays ?? null];
}

/** The strong ETag of an automation's definition: its version, quoted (`"3"`). */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The version an `If-Match` header requires, or undefined when the header is absent or `*`.
 * @throws ServiceError 412 PRECONDITION_FAILED when it names no version (a malformed or weak tag
 *   never matches, RFC 9110 13.1.1) or a version other than `current`.
 */
export function requiredVersion(ifMatch: string | undefined, current: number): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (tags.includes(etagOf(current))) return current;
  throw staleVersion(current);
}

/** 412 PRECONDITION_FAILED: the automation changed since the caller read it. */
export function staleVersion(current?: number): ServiceError {
  const now = current === undefined ? '' : ` (it is now at version ${current}, ETag ${etagOf(current)})`;
  return new ServiceError(
    412,
    'PRECONDITION_FAILED',
    `the automation was changed since it was read${now}; read it again and reapply the change`,
    {
      field: 'If-Match',
      reason: 'stale',
    },
  );
}
