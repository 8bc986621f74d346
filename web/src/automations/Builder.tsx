import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { useAutomation } from './queries';
import { useWorkspaces } from '../api/queries';
import { can } from '../components/permissions';
import { ReadOnlyAutomation } from './builder/ReadOnly';
import { Canvas } from './builder/Canvas';
import { BuilderHeader, type BuilderView } from './builder/BuilderHeader';
import { CodeEditor } from './builder/CodeEditor';
import { BuilderContext, type BuilderContextValue } from './builder/context';
import { variablesAt } from './builder/data';
import { StepTestsContext } from './builder/step-tests';
import { useTestData } from './builder/testData';
import { newStep, shiftKey, startingDefinition } from './builder/drafting';
import { clearDraft, draftKey, readDraft, writeDraft } from './builder/drafts';
import { initialOf } from './builder/fieldSchema';
import { InboundPanel, type Inbound } from './builder/InboundPanel';
import { indexKinds, useKinds, type KindInfo } from './builder/kinds';
import { KindPicker } from './builder/KindPicker';
import { allSteps, formatPath, getAt, insertStep, startsWith, type Definition, type Path, type Step } from './builder/model';
import { focusCard, pathKey, revealField, StepOpsContext, type StepOps } from './builder/ops';
import { serverProblem as toServerProblem, useDraftCheck, type ServerProblem } from './builder/draftCheck';
import { draftProblems } from './builder/problems';
import { TestRun } from './builder/TestRun';
import { Toasts, useToasts } from './builder/Toasts';
import type { Problem } from './builder/validate';
import './builder/builder.css';

/**
 * The automation builder (docs "Web app", "Automation builder"): the trigger and the steps as
 * cards with typed forms generated from the service's kinds catalogue, a data picker, a JSON view
 * (CodeMirror) on the same draft, errors at the field, a draft kept in the browser until saved or
 * discarded, and a test run. Nothing is compiled at run time, so it works under the app's CSP.
 * Someone who may not change automations (below Owner) gets the automation read-only instead.
 */
export default function Builder() {
  const { automationId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const catalogue = useKinds();
  const existing = useAutomation(automationId ?? '');
  const workspaceId = params.get('workspaceId') ?? existing.data?.workspaceId;
  const workspaces = useWorkspaces();
  const role = workspaces.data?.find((w) => w.id === workspaceId)?.role;
  const key = draftKey(automationId, automationId ? undefined : (params.get('workspaceId') ?? undefined));
  const kinds = useMemo(() => (catalogue.data ? indexKinds(catalogue.data) : null), [catalogue.data]);
  const [definition, setDefinition] = useState<Definition | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [view, setView] = useState<BuilderView>('form');
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [serverProblem, setServerProblem] = useState<ServerProblem | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [picker, setPicker] = useState<{ listPath: Path; index: number } | 'trigger' | null>(null);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(['trigger']));
  const [touched, setTouched] = useState<Set<string> | 'all'>(() => new Set());
  const { toasts, show, dismiss } = useToasts();
  const location = useLocation();
  const [inbound, setInbound] = useState<Inbound | null>((location.state as { inbound?: Inbound } | null)?.inbound ?? null);
  const { linkedStep, triggerText, setTriggerText, derivedTrigger, sampleRun, sampleGap, samplePending, samples, stepTests } = useTestData(
    automationId,
    workspaceId,
    definition,
    kinds,
    { step: params.get('step'), runId: params.get('run') },
  );

  // The starting draft: one kept in the browser, else the saved automation, else an empty one.
  useEffect(() => {
    if (definition || !kinds || (automationId && !existing.data)) return;
    const stored = readDraft(key);
    if (stored) {
      setDefinition(stored.definition);
      setRestored(stored.savedAt);
      setTouched('all');
    } else setDefinition(startingDefinition(automationId ? existing.data : undefined, kinds));
  }, [definition, kinds, automationId, existing.data, key]);

  const update = useCallback(
    (change: (d: Definition) => Definition) =>
      setDefinition((d) => {
        if (!d) return d;
        const next = change(d);
        writeDraft(key, {
          definition: next,
          savedAt: new Date().toISOString(),
          ...(existing.data ? { baseVersion: existing.data.version } : {}),
        });
        return next;
      }),
    [key, existing.data],
  );

  // The service's error goes away once the value it names changes.
  useEffect(() => {
    if (serverProblem && definition && JSON.stringify(getAt(definition, serverProblem.path) ?? null) !== serverProblem.seen)
      setServerProblem(null);
  }, [definition, serverProblem]);

  const blocking = useMemo(() => (definition && kinds ? draftProblems(definition, kinds) : []), [definition, kinds]);
  const stepPaths = useMemo(
    () => (definition && kinds ? allSteps(definition, kinds.nestedOf).map((s) => s.path) : []),
    [definition, kinds],
  );
  /** The path of the step holding `path` (the innermost), or `undefined` outside the steps. */
  const stepOf = useCallback((path: Path) => stepPaths.filter((s) => startsWith(path, s)).at(-1), [stepPaths]);
  // The service is asked about the draft as the author types, once the builder's own checks pass.
  const checkNow = useDraftCheck(
    workspaceId,
    definition,
    blocking.length === 0 && jsonError === null && can(role, 'manageAutomations'),
    setServerProblem,
  );
  // The builder's own problems show on the cards already edited; the service's error always shows.
  const problems = useMemo(() => {
    if (!definition || !kinds) return [];
    const cardOf = (path: Path) => (path[0] === 'actions' ? pathKey(stepOf(path) ?? path) : String(path[0]));
    const own = blocking.filter((p) => touched === 'all' || p.path[0] === 'name' || touched.has(cardOf(p.path)));
    return serverProblem ? [serverProblem, ...own.filter((p) => formatPath(p.path) !== formatPath(serverProblem.path))] : own;
  }, [definition, kinds, serverProblem, blocking, touched, stepOf]);

  const context = useMemo<BuilderContextValue>(
    () => ({
      workspaceId,
      problemAt: (path, leaf) => problems.find((p) => (leaf ? startsWith(p.path, path) : formatPath(p.path) === formatPath(path)))?.message,
      variablesFor: (path) => (definition && kinds ? variablesAt(definition, path, kinds, samples) : []),
      valueAt: (path) => getAt(definition, path),
    }),
    [workspaceId, problems, definition, kinds, samples],
  );

  const ops = useMemo<StepOps | null>(
    () =>
      definition && kinds
        ? {
            definition,
            kinds,
            update,
            notify: (message, before) => show(message, before ? { label: 'Undo', run: () => update(() => before) } : undefined),
            pick: (listPath, index) => setPicker({ listPath, index }),
            expanded,
            toggle: (path, open) =>
              setExpanded((s) => {
                const next = new Set(s);
                const k = pathKey(path);
                if (open ?? !next.has(k)) next.add(k);
                else next.delete(k);
                return next;
              }),
            problems,
            touch: (path) => setTouched((t) => (t === 'all' || t.has(pathKey(path)) ? t : new Set(t).add(pathKey(path)))),
          }
        : null,
    [definition, kinds, update, show, expanded, problems],
  );

  // The card opened from a run: expanded (with the cards around it) and focused, once.
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current || !linkedStep || !definition || !kinds) return;
    const found = allSteps(definition, kinds.nestedOf).find((s) => s.step.id === linkedStep);
    if (!found) return;
    shown.current = true;
    setExpanded((s) => {
      const next = new Set(s);
      for (let i = 1; i <= found.path.length; i++) if (typeof found.path[i - 1] === 'number') next.add(pathKey(found.path.slice(0, i)));
      return next;
    });
    focusCard(found.path);
  }, [linkedStep, definition, kinds]);

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
  if (!definition || !kinds || !ops || (workspaceId !== undefined && !workspaces.data)) return <p className="muted">Loading…</p>;

  const switchView = (next: BuilderView) => {
    if (next === 'json') {
      setJson(JSON.stringify(definition, null, 2));
      setJsonError(null);
    }
    setView(next);
  };

  const onJson = (text: string) => {
    setJson(text);
    try {
      const parsed = JSON.parse(text) as Definition;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('The definition is a JSON object');
      update(() => ({ ...parsed, trigger: parsed.trigger ?? { type: '' }, actions: Array.isArray(parsed.actions) ? parsed.actions : [] }));
      setTouched('all');
      setJsonError(null);
    } catch (e) {
      setJsonError((e as Error).message);
    }
  };

  const onPick = (kind: KindInfo) => {
    const at = picker;
    setPicker(null);
    if (at === 'trigger') {
      update((d) => ({ ...d, trigger: { ...(initialOf(kind.parameters) as Record<string, unknown>), type: kind.type } }));
      ops.toggle(['trigger'], true);
      focusCard(['trigger']);
    } else if (at) {
      update((d) => insertStep(d, at.listPath, at.index, newStep(d, kind, kinds)));
      const path = [...at.listPath, at.index];
      // Cards after the new one shift down: keep their open state with them.
      setExpanded((s) => new Set([...s].map((k) => shiftKey(k, at.listPath, at.index)).concat(pathKey(path))));
      focusCard(path);
    }
  };

  /** Opens the card holding `path`, then scrolls its field into view and focuses it. */
  const reveal = (path: Path) => {
    openPathOf(path);
    revealField(path);
  };

  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      // Asked first, so a save the service would refuse is shown at its field without a failing request.
      const known = await checkNow();
      if (known) {
        reveal(known.path);
        return;
      }
      setServerProblem(null);
      // A new automation's page always carries ?workspaceId= (without it the service answers 400, shown below).
      const saved = automationId
        ? unwrap(await api.PUT('/api/v1/automations/{automationId}', { params: { path: { automationId } }, body: definition })).item
        : unwrap(await api.POST('/api/v1/automations', { body: { workspaceId: workspaceId!, ...definition } })).item;
      clearDraft(key);
      setRestored(null);
      await queries.invalidateQueries({ queryKey: ['automations'] });
      await queries.invalidateQueries({ queryKey: ['automation', saved.id] });
      const webhook = saved.webhook ?? null;
      setInbound(webhook);
      show(`Saved “${saved.name}”, version ${saved.version}`);
      if (!automationId) navigate(`/automations/${saved.id}/edit`, { replace: true, state: { inbound: webhook } });
    } catch (e) {
      const field = e instanceof ApiError ? (e.details as { field?: string } | undefined)?.field : undefined;
      if (e instanceof ApiError && field) {
        const problem = toServerProblem(definition, field, e.message);
        setServerProblem(problem);
        reveal(problem.path);
      } else setFailure(e instanceof ApiError ? e.message : 'Could not save');
    } finally {
      setSaving(false);
    }
  };

  /** Opens the card (and the cards around it) holding `path`. */
  function openPathOf(path: Path) {
    setExpanded((s) => {
      const next = new Set(s);
      if (path[0] === 'trigger') next.add('trigger');
      for (let i = 1; i <= path.length; i++) if (typeof path[i - 1] === 'number') next.add(pathKey(path.slice(0, i)));
      return next;
    });
  }

  const discard = () => {
    clearDraft(key);
    setRestored(null);
    setServerProblem(null);
    setDefinition(startingDefinition(automationId ? existing.data : undefined, kinds));
    show('Draft discarded');
  };

  /** Where a problem is, for the Save bar: "trigger", "name" or "step <id>" (the step holding a list item too). */
  const where = (p: Problem) => {
    const step = p.path[0] === 'actions' ? stepOf(p.path) : undefined;
    if (!step) return String(p.path[0]);
    return `step ${String((getAt(definition, step) as Step | undefined)?.id ?? '')}`;
  };
  const listed = serverProblem
    ? [serverProblem, ...blocking.filter((p) => formatPath(p.path) !== formatPath(serverProblem.path))]
    : blocking;
  const reason = jsonError
    ? 'The JSON does not parse'
    : blocking.length
      ? `${blocking.length} problem${blocking.length > 1 ? 's' : ''} to fix — ${blocking[0]!.message} (${where(blocking[0]!)})`
      : null;

  return (
    <BuilderContext.Provider value={context}>
      <StepOpsContext.Provider value={ops}>
        <StepTestsContext.Provider value={stepTests}>
          <section aria-labelledby="builder-title" className="builder">
            <BuilderHeader
              title={automationId ? `Edit ${existing.data?.name ?? 'automation'}` : 'New automation'}
              view={view}
              onView={switchView}
              saving={saving}
              reason={reason}
              problems={listed.map((p) => ({ key: formatPath(p.path), text: `${p.message} (${where(p)})`, go: () => reveal(p.path) }))}
              onSave={() => void save()}
            />
            {restored && (
              <div className="draft-note" role="note">
                Unsaved changes from {new Date(restored).toLocaleString()} were restored.{' '}
                <button type="button" className="link" onClick={discard}>
                  Discard draft
                </button>
              </div>
            )}
            {inbound && <InboundPanel inbound={inbound} />}
            {failure && (
              <p role="alert" className="error">
                {failure}
              </p>
            )}
            {serverProblem && view === 'json' && (
              <p role="alert" className="error">
                {formatPath(serverProblem.path)}: {serverProblem.message}
              </p>
            )}
            <div className="builder-grid">
              <div>
                {view === 'form' ? (
                  <Canvas onChangeTrigger={() => setPicker('trigger')} />
                ) : (
                  <div className="json-view">
                    <CodeEditor
                      id="definition-json"
                      label="Definition (JSON)"
                      language="json"
                      value={json}
                      onChange={onJson}
                      invalid={jsonError !== null}
                      schema="automation"
                    />
                    {jsonError && <p className="error">{jsonError}</p>}
                  </div>
                )}
              </div>
              <aside aria-label="Test" className="side">
                {automationId ? (
                  <TestRun
                    automationId={automationId}
                    payload={triggerText ?? JSON.stringify(derivedTrigger, null, 2)}
                    onPayload={setTriggerText}
                    gap={sampleGap}
                    pending={samplePending}
                    fromRun={sampleRun?.id}
                  />
                ) : (
                  <p className="muted small">Save the automation to test it.</p>
                )}
              </aside>
            </div>
            {picker && (
              <KindPicker
                title={picker === 'trigger' ? 'Choose a trigger' : 'Add a step'}
                kinds={picker === 'trigger' ? kinds.catalogue.triggers : kinds.catalogue.actions}
                onPick={onPick}
                onClose={() => setPicker(null)}
              />
            )}
            <Toasts toasts={toasts} dismiss={dismiss} />
          </section>
        </StepTestsContext.Provider>
      </StepOpsContext.Provider>
    </BuilderContext.Provider>
  );
}
