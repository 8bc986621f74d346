import { beginRun } from './helpers/temp-run';

/** jest globalSetup: every temporary folder of this run goes under one run folder (see helpers/temp-run.ts). */
export default function globalSetup(): void {
  beginRun();
}
