import type { Migration } from '../migrate';

/** `automation_runs.replay_of`: the run a replay re-runs (docs "Automations", "Replay"). */
export const m014RunReplay: Migration = {
  version: 14,
  name: 'run_replay',
  up: `
ALTER TABLE automation_runs ADD COLUMN replay_of TEXT;
CREATE INDEX automation_runs_replay_of ON automation_runs(replay_of) WHERE replay_of IS NOT NULL;
`,
};
