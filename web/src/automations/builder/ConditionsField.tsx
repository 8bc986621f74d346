import { Plus, X } from 'lucide-react';
import { fieldId, useBuilder } from './context';
import type { SpecialProps } from './SpecialFields';
import { TemplateInput } from './TemplateInput';

/** The comparison operators of conditions (docs "Automations", branch `conditions`), with their labels. */
const OPERATORS: [string, string][] = [
  ['equals', 'equals'],
  ['not_equals', 'does not equal'],
  ['contains', 'contains'],
  ['not_contains', 'does not contain'],
  ['starts_with', 'starts with'],
  ['ends_with', 'ends with'],
  ['matches', 'matches (regular expression)'],
  ['is_empty', 'is empty'],
  ['is_not_empty', 'is not empty'],
  ['gt', '>'],
  ['lt', '<'],
  ['gte', '≥'],
  ['lte', '≤'],
];
const UNARY = new Set(['is_empty', 'is_not_empty']);

type Rule = { left?: unknown; operator?: string; right?: unknown };
type Conditions = { anyOf: { allOf: Rule[] }[] };

function text(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v);
}

/** A rule's operator; a one-sided operator (`is empty`) drops the rule's right side. */
function OperatorSelect({ label, rule, onChange }: { label: string; rule: Rule; onChange(rule: Rule): void }) {
  return (
    <select
      aria-label={label}
      value={rule.operator ?? 'equals'}
      onChange={(e) => {
        const next: Rule = { ...rule, operator: e.target.value };
        if (UNARY.has(e.target.value)) delete next.right;
        onChange(next);
      }}
    >
      {OPERATORS.map(([op, name]) => (
        <option key={op} value={op}>
          {name}
        </option>
      ))}
    </select>
  );
}

/**
 * Conditions as groups of rules (`{anyOf: [{allOf: [{left, operator, right}]}]}`): the rules of a
 * group must all hold ("and"); one group holding is enough ("or"). Both sides are templates with
 * the data picker.
 */
export function ConditionsField({ id, path, schema, value, onChange, label }: SpecialProps & { label: string }) {
  const { problemAt } = useBuilder();
  const conditions: Conditions =
    value && typeof value === 'object' && Array.isArray((value as Conditions).anyOf) ? (value as Conditions) : { anyOf: [] };
  const groups = conditions.anyOf;
  const set = (next: Conditions['anyOf']) => onChange(next.length ? { anyOf: next } : undefined);
  const setRule = (g: number, r: number, rule: Rule) =>
    set(groups.map((grp, i) => (i === g ? { allOf: grp.allOf.map((x, j) => (j === r ? rule : x)) } : grp)));
  const error = problemAt(path, false);
  return (
    <fieldset className={`group conditions${error ? ' has-error' : ''}`} id={id}>
      <legend>{label}</legend>
      {schema.description && <p className="help">{schema.description}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {groups.map((group, g) => (
        <div key={g} className="condition-group" role="group" aria-label={`Condition group ${g + 1}`}>
          {g > 0 && <p className="or">or</p>}
          {(group.allOf ?? []).map((rule, r) => {
            const at = [...path, 'anyOf', g, 'allOf', r];
            const ruleId = fieldId(at);
            const leftError = problemAt([...at, 'left'], true);
            const rightError = problemAt([...at, 'right'], true);
            return (
              <div key={r} className="condition-rule">
                {r > 0 && <span className="and">and</span>}
                <TemplateInput
                  id={`${ruleId}-left`}
                  path={[...at, 'left']}
                  value={text(rule.left)}
                  ariaLabel={`Condition ${g + 1}.${r + 1}: value`}
                  invalid={leftError !== undefined}
                  placeholder="{{ trigger.nodeText }}"
                  onChange={(v) => setRule(g, r, { ...rule, left: v })}
                />
                <OperatorSelect label={`Condition ${g + 1}.${r + 1}: operator`} rule={rule} onChange={(next) => setRule(g, r, next)} />
                {!UNARY.has(rule.operator ?? '') && (
                  <TemplateInput
                    id={`${ruleId}-right`}
                    path={[...at, 'right']}
                    value={text(rule.right)}
                    ariaLabel={`Condition ${g + 1}.${r + 1}: compared with`}
                    invalid={rightError !== undefined}
                    onChange={(v) => setRule(g, r, { ...rule, right: v })}
                  />
                )}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove condition ${g + 1}.${r + 1}`}
                  onClick={() => {
                    const rules = group.allOf.filter((_, j) => j !== r);
                    set(rules.length ? groups.map((grp, i) => (i === g ? { allOf: rules } : grp)) : groups.filter((_, i) => i !== g));
                  }}
                >
                  <X size={14} aria-hidden="true" />
                </button>
                {(leftError || rightError) && (
                  <p className="field-error" role="alert">
                    {leftError ?? rightError}
                  </p>
                )}
              </div>
            );
          })}
          <button
            type="button"
            className="secondary small"
            onClick={() =>
              set(groups.map((grp, i) => (i === g ? { allOf: [...grp.allOf, { left: '', operator: 'equals', right: '' }] } : grp)))
            }
          >
            <Plus size={14} aria-hidden="true" /> And…
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary small"
        onClick={() => set([...groups, { allOf: [{ left: '', operator: 'equals', right: '' }] }])}
      >
        <Plus size={14} aria-hidden="true" /> {groups.length ? 'Or…' : 'Add a condition'}
      </button>
    </fieldset>
  );
}
