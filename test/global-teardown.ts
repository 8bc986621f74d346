import { endRun } from './helpers/temp-run';

/** jest globalTeardown: removes the run's temporary folder and everything the tests left in it. */
export default function globalTeardown(): void {
  endRun();
}
