import { fieldId, useBuilder } from './context';
import { Field } from './Fields';
import { formatPath, setAt, startsWith, type Path, type Step } from './model';
import { useStepOps } from './ops';

/** Fields every action has that the panel edits itself (its head, the flow's lanes) rather than in its form. */
const OWN = new Set(['id', 'type', 'disabled', 'onError']);

/** The error path choice of a step: stop the run, go on, or run error steps (drawn as a lane in the flow). */
function OnErrorField({ path, step }: { path: Path; step: Step }) {
  const { update } = useStepOps();
  const mode = step.onError === 'continue' ? 'continue' : step.onError && typeof step.onError === 'object' ? 'then' : 'fail';
  const id = fieldId([...path, 'onError']);
  return (
    <div className="field">
      <label htmlFor={id}>When this step fails</label>
      <select
        id={id}
        value={mode}
        onChange={(e) => {
          const v = e.target.value;
          update((d) => setAt(d, [...path, 'onError'], v === 'fail' ? undefined : v === 'continue' ? 'continue' : { then: [] }), path);
        }}
      >
        <option value="fail">Stop the run (fail)</option>
        <option value="continue">Continue with the next step</option>
        <option value="then">Run error steps, then continue</option>
      </select>
    </div>
  );
}

/**
 * A step's form in the side panel: the problems that belong to no field, its kind's fields, then
 * the settings every step has (name, retries, timeout, the error path).
 */
export function StepForm({ path, step }: { path: Path; step: Step }) {
  const { kinds, update, problems } = useStepOps();
  const kind = kinds.action(step.type);
  const props = kind?.parameters.properties ?? {};
  const common = kinds.catalogue.commonActionParameters.properties ?? {};
  const loose = problems.filter((p) => {
    if (!startsWith(p.path, path)) return false;
    const next = p.path[path.length];
    return (
      p.path.length === path.length ||
      (typeof next === 'string' && !(next in props) && !(next in common) && !OWN.has(next) && !(kind?.nested ?? []).includes(next))
    );
  });
  const set = (k: string, v: unknown) => update((d) => setAt(d, [...path, k], v), path);
  return (
    <div className="card-body">
      {loose.map((p) => (
        <p key={formatPath(p.path)} className="field-error" role="alert">
          {p.message}
        </p>
      ))}
      {Object.entries(props).map(([k, s]) =>
        OWN.has(k) || s['x-editor'] === 'steps' || kind?.nested?.includes(k) ? null : (
          <Field
            key={k}
            name={k}
            schema={s}
            value={step[k]}
            onChange={(v) => set(k, v)}
            path={[...path, k]}
            required={kind?.parameters.required?.includes(k)}
            siblings={step}
          />
        ),
      )}
      <details className="step-settings">
        <summary>Settings: name, retries, timeout, errors</summary>
        {Object.entries(common).map(([k, s]) =>
          OWN.has(k) || k in props ? null : (
            <Field key={k} name={k} schema={s} value={step[k]} onChange={(v) => set(k, v)} path={[...path, k]} siblings={step} />
          ),
        )}
        <OnErrorField path={path} step={step} />
      </details>
    </div>
  );
}

/** The trigger's form in the side panel: its kind's fields, and the problems that belong to no field. */
export function TriggerForm() {
  const { definition, kinds, update } = useStepOps();
  const { problemAt } = useBuilder();
  const trigger = definition.trigger;
  const kind = trigger.type ? kinds.trigger(trigger.type) : undefined;
  const loose = problemAt(['trigger'], false);
  return (
    <>
      {loose && (
        <p className="field-error" role="alert" id={fieldId(['trigger'], '-error')}>
          {loose}
        </p>
      )}
      {kind && (
        <div className="card-body">
          {Object.entries(kind.parameters.properties ?? {}).map(([k, s]) =>
            k === 'type' ? null : (
              <Field
                key={k}
                name={k}
                schema={s}
                value={trigger[k]}
                onChange={(v) => update((d) => setAt(d, ['trigger', k], v), ['trigger'])}
                path={['trigger', k]}
                required={kind.parameters.required?.includes(k)}
                siblings={trigger}
              />
            ),
          )}
        </div>
      )}
    </>
  );
}
