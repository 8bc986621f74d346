/**
 * A run's resume URL (docs/automations.md "Waiting for an event"): `<public URL>/resume/<runId>/
 * <MAC>`, a capability URL with nothing stored — the MAC of the run id under the service's secret
 * key proves the URL was made by this service for this run.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Services } from '../../services';

/** The purpose of the MAC in resume URLs (see `SecretBox.mac`). */
const RESUME_PURPOSE = 'run-resume';

/** The absolute resume URL of a run: `<public URL>/resume/<runId>/<MAC of the run id>`. */
export function resumeUrlOf(svc: Services, runId: string): string {
  return svc.links.url(`/resume/${encodeURIComponent(runId)}/${svc.secretBox.mac(RESUME_PURPOSE, runId)}`);
}

/** Whether `signature` is the resume MAC of `runId` (compared in constant time). */
export function validResume(svc: Services, runId: string, signature: string): boolean {
  const expected = Buffer.from(svc.secretBox.mac(RESUME_PURPOSE, runId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
