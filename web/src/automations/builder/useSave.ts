import { useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { automationWrites, useRefreshSaved } from '../api';
import { clearDraft } from './drafts';
import { serverProblem as toServerProblem, type ServerProblem } from './draftCheck';
import type { Inbound } from './InboundPanel';
import type { Definition, Path } from './model';
import type { BuilderAction } from './state';

/** What {@link useSave} saves with. */
export interface SaveInputs {
  automationId: string | undefined;
  workspaceId: string | undefined;
  definition: Definition | null;
  /** The browser's draft key (cleared once saved). */
  draftKey: string;
  dispatch: Dispatch<BuilderAction>;
  /** Asks the service about the draft now (draftCheck.ts). */
  checkNow(): Promise<ServerProblem | null | undefined>;
  /** Selects the step holding `path`, opens its panel and focuses the field. */
  reveal(path: Path): void;
  show(message: string): void;
  onInbound(inbound: Inbound | null): void;
}

/**
 * Saving the draft (docs "Web app", "Automation builder"): the service is asked first, so a save
 * it would refuse shows at its field (the step selected, its panel open, the field focused)
 * without a failing request; a new automation then moves to its own page.
 */
export function useSave(inputs: SaveInputs) {
  const navigate = useNavigate();
  const refreshSaved = useRefreshSaved();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { automationId, workspaceId, definition, draftKey, dispatch, checkNow, reveal, show, onInbound } = inputs;
  const save = async () => {
    if (!definition) return;
    setSaving(true);
    setFailure(null);
    try {
      const known = await checkNow();
      if (known) {
        reveal(known.path);
        return;
      }
      // A new automation's page always carries ?workspaceId= (without it the service answers 400, shown below).
      const saved = await automationWrites.save(automationId, workspaceId, definition);
      clearDraft(draftKey);
      dispatch({ type: 'saved' });
      await refreshSaved(saved.id);
      const webhook = saved.webhook ?? null;
      onInbound(webhook);
      show(`Saved “${saved.name}”, version ${saved.version}`);
      if (!automationId) navigate(`/automations/${saved.id}/edit`, { replace: true, state: { inbound: webhook } });
    } catch (e) {
      const field = e instanceof ApiError ? (e.details as { field?: string } | undefined)?.field : undefined;
      if (e instanceof ApiError && field) {
        const problem = toServerProblem(definition, field, e.message);
        dispatch({ type: 'server', problem });
        reveal(problem.path);
      } else setFailure(e instanceof ApiError ? e.message : 'Could not save');
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, failure };
}
