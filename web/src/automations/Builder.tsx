import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { useAutomation } from './queries';
import { useWorkspaces } from '../api/queries';
import { can } from '../components/permissions';
import { ReadOnlyAutomation } from './builder/ReadOnly';
import { BuilderBody } from './builder/BuilderBody';
import { BuilderContext, type BuilderContextValue } from './builder/context';
import { variablesAt } from './builder/data';
import { StepTestsContext } from './builder/step-tests';
import { useTestData } from './builder/testData';
import { startingDefinition } from './builder/drafting';
import { clearDraft, draftKey } from './builder/drafts';
import type { Inbound } from './builder/InboundPanel';
import { indexKinds, useKinds, type Kinds } from './builder/kinds';
import { allSteps, formatPath, getAt, startsWith, type Step } from './builder/model';
import { focusCard, StepOpsContext } from './builder/ops';
import { useDraftCheck } from './builder/draftCheck';
import { useBuilderState, useProblems } from './builder/useBuilderState';
import { useOps } from './builder/useOps';
import { useSave } from './builder/useSave';
import { useToasts } from './builder/Toasts';
import type { Problem } from './builder/validate';
import type { Automation } from './types';
import './builder/builder.css';

/** What the builder screen works on once the catalogue (and the saved automation) are read. */
interface ScreenProps {
  automationId: string | undefined;
  workspaceId: string | undefined;
  role: string | undefined;
  kinds: Kinds;
  saved: Automation | undefined;
  draftKey: string;
}

/** The builder once loaded: its state (builder/state.ts), the draft check, the save, and the flow view. */
function BuilderScreen({ automationId, workspaceId, role, kinds, saved, draftKey: key }: ScreenProps) {
  const [params] = useSearchParams();
  const location = useLocation();
  const { state, dispatch } = useBuilderState({ key, kinds, saved, ready: !automationId || saved !== undefined });
  const { definition, serverProblem } = state;
  const { blocking, problems, listed, stepOf, problemCount } = useProblems(state, kinds);
  const [jsonError, setJsonError] = useState<string | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const [inbound, setInbound] = useState<Inbound | null>((location.state as { inbound?: Inbound } | null)?.inbound ?? null);
  const data = useTestData(automationId, workspaceId, definition, kinds, { step: params.get('step'), runId: params.get('run') });
  const checkNow = useDraftCheck(
    workspaceId,
    definition,
    blocking.length === 0 && jsonError === null && can(role, 'manageAutomations'),
    (problem) => dispatch({ type: 'server', problem }),
  );
  const { ops, picker, setPicker, onPick, reveal } = useOps({ state, dispatch, kinds, problems, problemCount, stepOf, show });
  const { save, saving, failure } = useSave({
    automationId,
    workspaceId,
    definition,
    draftKey: key,
    dispatch,
    checkNow,
    reveal,
    show,
    onInbound: setInbound,
  });

  const context = useMemo<BuilderContextValue>(
    () => ({
      workspaceId,
      problemAt: (path, leaf) => problems.find((p) => (leaf ? startsWith(p.path, path) : formatPath(p.path) === formatPath(path)))?.message,
      variablesFor: (path) => (definition ? variablesAt(definition, path, kinds, data.samples) : []),
      valueAt: (path) => getAt(definition, path),
    }),
    [workspaceId, problems, definition, kinds, data.samples],
  );

  // The step opened from a run: selected (its lanes open), its card focused, once.
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current || !data.linkedStep || !definition) return;
    const found = allSteps(definition, kinds.nestedOf).find((s) => s.step.id === data.linkedStep);
    if (!found) return;
    shown.current = true;
    dispatch({ type: 'select', selected: found.path });
    focusCard(found.path);
  }, [data.linkedStep, definition, kinds, dispatch]);

  if (!definition || !ops) return <p className="muted">Loading…</p>;

  /** Where a problem is, for the Save bar: "trigger", "name" or "step <id>" (the step holding a list item too). */
  const where = (p: Problem) => {
    const step = p.path[0] === 'actions' ? stepOf(p.path) : undefined;
    if (!step) return String(p.path[0]);
    return `step ${String((getAt(definition, step) as Step | undefined)?.id ?? '')}`;
  };
  const reason = jsonError
    ? 'The JSON does not parse'
    : blocking.length
      ? `${blocking.length} problem${blocking.length > 1 ? 's' : ''} to fix — ${blocking[0]!.message} (${where(blocking[0]!)})`
      : null;
  const discard = () => {
    clearDraft(key);
    dispatch({ type: 'load', definition: startingDefinition(saved, kinds) });
    show('Draft discarded');
  };

  return (
    <BuilderContext.Provider value={context}>
      <StepOpsContext.Provider value={ops}>
        <StepTestsContext.Provider value={data.stepTests}>
          <BuilderBody
            triggerKind={definition ? kinds.trigger(definition.trigger.type) : undefined}
            title={automationId ? `Edit ${saved?.name ?? 'automation'}` : 'New automation'}
            automationId={automationId}
            state={state}
            dispatch={dispatch}
            reason={reason}
            problems={listed.map((p) => ({ key: formatPath(p.path), text: `${p.message} (${where(p)})`, go: () => reveal(p.path) }))}
            saving={saving}
            failure={failure}
            onSave={() => void save()}
            onDiscard={discard}
            jsonError={jsonError}
            onJsonError={setJsonError}
            inbound={inbound}
            serverProblem={serverProblem}
            test={data}
            picker={picker}
            onPicker={setPicker}
            onPick={onPick}
            toasts={{ toasts, dismiss }}
          />
        </StepTestsContext.Provider>
      </StepOpsContext.Provider>
    </BuilderContext.Provider>
  );
}

/**
 * The automation builder (docs "Web app", "Automation builder"): the trigger and the steps as a
 * flow of collapsed cards (lanes for branches, parallel branches, loops and error paths), the
 * chosen step's typed form (generated from the service's kinds catalogue) in a side panel with the
 * data picker and its step test, a JSON view (CodeMirror) on the same draft, errors brought into
 * view, a draft kept in the browser until saved or discarded, and a test run. Nothing is compiled
 * at run time, so it works under the app's CSP. Someone who may not change automations (below
 * Owner) gets the automation read-only instead.
 */
export default function Builder() {
  const { automationId } = useParams();
  const [params] = useSearchParams();
  const catalogue = useKinds();
  const existing = useAutomation(automationId ?? '');
  const workspaceId = params.get('workspaceId') ?? existing.data?.workspaceId;
  const workspaces = useWorkspaces();
  const role = workspaces.data?.find((w) => w.id === workspaceId)?.role;
  const key = draftKey(automationId, automationId ? undefined : (params.get('workspaceId') ?? undefined));
  const kinds = useMemo(() => (catalogue.data ? indexKinds(catalogue.data) : null), [catalogue.data]);

  if (catalogue.isError)
    return (
      <p className="error" role="alert">
        The kinds of steps could not be read: {catalogue.error.message}
      </p>
    );
  if (existing.isError && automationId)
    return (
      <p className="error" role="alert">
        {existing.error.message}
      </p>
    );
  if (workspaceId !== undefined && workspaces.data && !can(role, 'manageAutomations'))
    return <ReadOnlyAutomation automation={existing.data} role={role} />;
  // Kept mounted while a new automation's first save moves it to its own page.
  if (!kinds || (workspaceId !== undefined && !workspaces.data)) return <p className="muted">Loading…</p>;
  return (
    <BuilderScreen automationId={automationId} workspaceId={workspaceId} role={role} kinds={kinds} saved={existing.data} draftKey={key} />
  );
}
