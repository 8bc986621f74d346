import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { automationKeys } from '../api/keys';
import { automationWrites } from './api';
import { KindIcon } from './builder/icons';
import { usePickerOptions } from './builder/pickers';
import { choiceReady, TEMPLATES, type AutomationTemplate, type TemplateChoice, type TemplateChoices } from './templates';
import { keepTemplateSample } from './builder/sampleContext';

/** One choice of a template: a select of the workspace's things, or a URL field. */
function ChoiceField({
  choice,
  workspaceId,
  values,
  onChange,
}: {
  choice: TemplateChoice;
  workspaceId: string;
  values: TemplateChoices;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const options = usePickerOptions(choice.kind === 'url' ? undefined : choice.kind, workspaceId, { agentId: values.agentId });
  const value = values[choice.key] ?? '';
  const invalid = value !== '' && !choiceReady(choice, value);
  return (
    <div className="field">
      <label htmlFor={id}>
        {choice.label}
        {choice.optional ? ' (optional)' : ''}
      </label>
      {choice.kind === 'url' ? (
        <input
          id={id}
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/…"
          value={value}
          aria-invalid={invalid}
          onChange={(e) => onChange(e.target.value.trim())}
        />
      ) : (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={options === null}>
          <option value="">{options === null ? 'Choose the agent first' : options === undefined ? 'Loading…' : `Choose…`}</option>
          {options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
      {options && options.length === 0 && !choice.optional && <span className="error">None in this workspace yet: create one first.</span>}
      {invalid && <span className="error">Enter an https:// URL.</span>}
      {choice.help && <span className="help">{choice.help}</span>}
    </div>
  );
}

/** The choices of the picked template and the button that creates the automation. */
function TemplateSetup({ template, workspaceId, onCancel }: { template: AutomationTemplate; workspaceId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [values, setValues] = useState<TemplateChoices>({});
  const create = useMutation({
    mutationFn: async () => {
      const definition = template.build(values);
      return automationWrites.create({ workspaceId, enabled: false, ...definition });
    },
    onSuccess: async (automation) => {
      if (template.sample) keepTemplateSample(automation.id, template.sample(values));
      await queries.invalidateQueries({ queryKey: automationKeys.lists() });
      void navigate(`/automations/${automation.id}/edit`);
    },
  });
  const ready = template.choices.every((c) => choiceReady(c, values[c.key]));
  return (
    <form
      className="card"
      aria-label={`Set up ${template.title}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) create.mutate();
      }}
    >
      <h3>
        <KindIcon name={template.icon} /> {template.title}
      </h3>
      <p className="muted">{template.description}</p>
      {template.choices.map((c) => (
        <ChoiceField
          key={c.key}
          choice={c}
          workspaceId={workspaceId}
          values={values}
          onChange={(value) => setValues((v) => ({ ...v, [c.key]: value, ...(c.key === 'agentId' ? { command: '' } : {}) }))}
        />
      ))}
      {template.choices.length === 0 && <p className="help">Nothing to choose: it works in every project.</p>}
      {create.isError && (
        <p role="alert" className="alert">
          {errorMessage(create.error)}
        </p>
      )}
      <div className="btn-row">
        <button type="submit" disabled={!ready || create.isPending}>
          Create automation
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Back to templates
        </button>
      </div>
      <p className="help">It is created disabled and opens in the builder; switch it on when it looks right.</p>
    </form>
  );
}

/**
 * The template gallery (docs/automations.md "Templates"): pick a template, make the choices it
 * needs (project, URL…), and the automation is created disabled and opened in the builder.
 */
export function Gallery({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const [picked, setPicked] = useState<AutomationTemplate | null>(null);
  return (
    <section aria-label="Templates" className="stack">
      <div className="row">
        <h3>New from template</h3>
        <button type="button" className="secondary" onClick={onClose}>
          Close templates
        </button>
      </div>
      {picked ? (
        <TemplateSetup key={picked.id} template={picked} workspaceId={workspaceId} onCancel={() => setPicked(null)} />
      ) : (
        <ul className="card-grid">
          {TEMPLATES.map((t) => (
            <li key={t.id} className="card">
              <strong>
                <KindIcon name={t.icon} /> {t.title}
              </strong>
              <span className="muted small">{t.description}</span>
              <button type="button" className="secondary" onClick={() => setPicked(t)} aria-label={`Use template ${t.title}`}>
                Use template
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
