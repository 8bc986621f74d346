import { useState, type Dispatch } from 'react';
import { BuilderHeader, type BuilderView } from './BuilderHeader';
import { Canvas } from './Canvas';
import { CodeEditor } from './CodeEditor';
import type { ServerProblem } from './draftCheck';
import { InboundPanel, type Inbound } from './InboundPanel';
import { KindPicker } from './KindPicker';
import type { KindInfo } from './kinds';
import { formatPath, type Definition } from './model';
import { useStepOps } from './ops';
import type { BuilderAction, BuilderState } from './state';
import { TestRun } from './TestRun';
import type { useTestData } from './testData';
import { Toasts, type Toast } from './Toasts';
import type { PickerTarget } from './useOps';

/** Props of {@link BuilderBody}. */
export interface BuilderBodyProps {
  title: string;
  automationId: string | undefined;
  state: BuilderState;
  dispatch: Dispatch<BuilderAction>;
  /** Why saving is blocked, or null. */
  reason: string | null;
  problems: { key: string; text: string; go(): void }[];
  saving: boolean;
  failure: string | null;
  onSave(): void;
  onDiscard(): void;
  jsonError: string | null;
  onJsonError(error: string | null): void;
  inbound: Inbound | null;
  serverProblem: ServerProblem | null;
  test: ReturnType<typeof useTestData>;
  picker: PickerTarget;
  onPicker(target: PickerTarget): void;
  onPick(kind: KindInfo): void;
  toasts: { toasts: Toast[]; dismiss(id: number): void };
  /** The kind of the draft's trigger (a piece trigger's sample loads from its service). */
  triggerKind?: KindInfo | undefined;
}

/** The test run beside the flow (a saved automation only). */
function TestAside({
  automationId,
  test,
  trigger,
  triggerKind,
}: {
  automationId: string | undefined;
  test: BuilderBodyProps['test'];
  trigger: Definition['trigger'] | undefined;
  triggerKind: KindInfo | undefined;
}) {
  return (
    <aside aria-label="Test" className="side">
      {automationId ? (
        <TestRun
          automationId={automationId}
          payload={test.triggerText ?? JSON.stringify(test.derivedTrigger, null, 2)}
          onPayload={test.setTriggerText}
          gap={test.sampleGap}
          pending={test.samplePending}
          fromRun={test.sampleRun?.id}
          trigger={trigger}
          triggerKind={triggerKind}
        />
      ) : (
        <p className="muted small">Save the automation to test it.</p>
      )}
    </aside>
  );
}

/** The JSON view: the whole draft in CodeMirror, parsed as it is typed. */
function JsonView({ text, onText, error }: { text: string; onText(text: string): void; error: string | null }) {
  return (
    <div className="json-view">
      <CodeEditor
        id="definition-json"
        label="Definition (JSON)"
        language="json"
        value={text}
        onChange={onText}
        invalid={error !== null}
        schema="automation"
      />
      {error && <p className="error">{error}</p>}
    </div>
  );
}

/** The builder's page: its header and Save bar, notes, the flow view or the JSON view, the kind picker and the toasts. */
export function BuilderBody(props: BuilderBodyProps) {
  const { state, dispatch, jsonError, onJsonError, serverProblem, picker } = props;
  const { kinds } = useStepOps();
  const [view, setView] = useState<BuilderView>('form');
  const [json, setJson] = useState('');
  const switchView = (next: BuilderView) => {
    if (next === 'json') {
      setJson(JSON.stringify(state.definition, null, 2));
      onJsonError(null);
    }
    setView(next);
  };
  const onJson = (text: string) => {
    setJson(text);
    try {
      const parsed = JSON.parse(text) as Definition;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('The definition is a JSON object');
      dispatch({
        type: 'replace',
        definition: { ...parsed, trigger: parsed.trigger ?? { type: '' }, actions: Array.isArray(parsed.actions) ? parsed.actions : [] },
      });
      dispatch({ type: 'touch', path: 'all' });
      onJsonError(null);
    } catch (e) {
      onJsonError((e as Error).message);
    }
  };
  const trigger = props.state.definition?.trigger;
  const test = <TestAside automationId={props.automationId} test={props.test} trigger={trigger} triggerKind={props.triggerKind} />;
  return (
    <section aria-labelledby="builder-title" className="builder">
      <BuilderHeader
        title={props.title}
        view={view}
        onView={switchView}
        saving={props.saving}
        reason={props.reason}
        problems={props.problems}
        onSave={props.onSave}
      />
      {state.restored && (
        <div className="draft-note" role="note">
          Unsaved changes from {new Date(state.restored).toLocaleString()} were restored.{' '}
          <button type="button" className="link" onClick={props.onDiscard}>
            Discard draft
          </button>
        </div>
      )}
      {props.inbound && <InboundPanel inbound={props.inbound} />}
      {props.failure && (
        <p role="alert" className="error">
          {props.failure}
        </p>
      )}
      {serverProblem && view === 'json' && (
        <p role="alert" className="error">
          {formatPath(serverProblem.path)}: {serverProblem.message}
        </p>
      )}
      {view === 'form' ? (
        <Canvas test={test} />
      ) : (
        <div className="json-layout">
          <JsonView text={json} onText={onJson} error={jsonError} />
          {test}
        </div>
      )}
      {picker && (
        <KindPicker
          title={picker === 'trigger' ? 'Choose a trigger' : 'Add a step'}
          kinds={picker === 'trigger' ? kinds.catalogue.triggers : kinds.catalogue.actions}
          onPick={props.onPick}
          onClose={() => props.onPicker(null)}
        />
      )}
      <Toasts toasts={props.toasts.toasts} dismiss={props.toasts.dismiss} />
    </section>
  );
}
