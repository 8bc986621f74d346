import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { api, ApiError, unwrap } from '../api/client';
import { useAutomation } from './queries';
import { errorAt, variablesOf } from './variables';
import type { Automation, Run } from './types';

/** The inbound URL of a webhook or form trigger as a save returns it; `token` only in the answer that generated it. */
type Inbound = { url?: string; token?: string; formUrl?: string; requiresToken?: boolean };

/** The inbound URL (and form page) of the automation, and its token when this save generated one: shown once. */
function InboundPanel({ inbound }: { inbound: Inbound }) {
  if (!inbound.url) return null;
  return (
    <div className="card wide" role="status" aria-label="Inbound URL">
      <p>
        Inbound URL: <code>{inbound.url}</code>
      </p>
      {inbound.formUrl && (
        <p>
          Form page:{' '}
          <a
            href={inbound.token ? `${inbound.formUrl}?token=${encodeURIComponent(inbound.token)}` : inbound.formUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {inbound.formUrl}
          </a>
        </p>
      )}
      {inbound.token ? (
        <p className="secret">
          Token (shown once — store it now): <code>{inbound.token}</code>
        </p>
      ) : (
        inbound.requiresToken && <p className="muted small">Callers send the token made when it was required (it is not shown again).</p>
      )}
    </div>
  );
}

type Definition = {
  name: string;
  description?: string;
  trigger: { type: string; [k: string]: unknown };
  actions: Record<string, unknown>[];
};

const EMPTY: Definition = { name: 'New automation', trigger: { type: 'webhook' }, actions: [] };

function definitionOf(a: Automation): Definition {
  return { name: a.name, ...(a.description ? { description: a.description } : {}), trigger: a.trigger, actions: a.actions };
}

/** Inserts `text` at the caret of a (React-controlled) input or textarea and lets React see it. */
function insertAtCaret(el: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? el.value.length;
  const value = el.value.slice(0, start) + text + el.value.slice(end);
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set;
  setter?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.focus();
  el.setSelectionRange(start + text.length, start + text.length);
}

/**
 * The automation builder: a form generated from the service's published definition schema
 * (trigger and ordered actions, branches, approvals and loops with their own action lists), a
 * variable picker, a JSON view that round-trips, validation errors from the service at the right
 * field, and a test run with a sample payload.
 */
export default function Builder() {
  const { automationId } = useParams();
  const [params] = useSearchParams();
  const workspaceId = params.get('workspaceId') ?? undefined;
  const navigate = useNavigate();
  const queries = useQueryClient();
  const schema = useQuery({
    queryKey: ['automation-schema'],
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/schema')) as RJSFSchema,
    staleTime: Infinity,
  });
  const existing = useAutomation(automationId ?? '');
  const [definition, setDefinition] = useState<Definition | null>(automationId ? null : EMPTY);
  const [view, setView] = useState<'form' | 'json'>('form');
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<{ message: string; field?: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [payload, setPayload] = useState('{\n  "example": true\n}');
  const [testRun, setTestRun] = useState<Run | null>(null);
  const lastField = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  // The inbound URL of the last save; a new automation's travels with the navigation to its edit page.
  const location = useLocation();
  const [inbound, setInbound] = useState<Inbound | null>((location.state as { inbound?: Inbound } | null)?.inbound ?? null);

  useEffect(() => {
    if (automationId && existing.data && definition === null) setDefinition(definitionOf(existing.data));
  }, [automationId, existing.data, definition]);

  const variables = useMemo(() => (definition ? variablesOf(definition) : []), [definition]);
  const extraErrors = useMemo(() => (serverError?.field ? errorAt(serverError.field, serverError.message) : undefined), [serverError]);

  if (schema.isError) return <p className="error">{schema.error.message}</p>;
  if (!definition || !schema.data) return <p className="muted">Loading…</p>;

  const switchView = (next: 'form' | 'json') => {
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
      setDefinition(parsed);
      setJsonError(null);
    } catch (e) {
      setJsonError((e as Error).message);
    }
  };

  async function save() {
    setSaving(true);
    setServerError(null);
    try {
      const body = definition as never;
      const saved = automationId
        ? unwrap(await api.PUT('/api/v1/automations/{automationId}', { params: { path: { automationId } }, body })).item
        : unwrap(await api.POST('/api/v1/automations', { body: { workspaceId, ...definition } as never })).item;
      await queries.invalidateQueries({ queryKey: ['automations'] });
      await queries.invalidateQueries({ queryKey: ['automation', saved.id] });
      const webhook = (saved as { webhook?: Inbound }).webhook ?? null;
      setInbound(webhook);
      if (!automationId) navigate(`/automations/${saved.id}/edit`, { replace: true, state: { inbound: webhook } });
    } catch (e) {
      if (e instanceof ApiError) {
        const field = (e.details as { field?: string } | undefined)?.field;
        setServerError({ message: e.message, ...(field ? { field } : {}) });
      } else setServerError({ message: 'Could not save' });
    } finally {
      setSaving(false);
    }
  }

  async function test() {
    if (!automationId) return;
    setServerError(null);
    try {
      const sample = JSON.parse(payload) as Record<string, unknown>;
      const res = unwrap(
        await api.POST('/api/v1/automations/{automationId}/test', {
          params: { path: { automationId } },
          body: { payload: sample } as never,
        }),
      );
      setTestRun(res.item as unknown as Run);
    } catch (e) {
      setServerError({ message: e instanceof ApiError ? e.message : (e as Error).message });
    }
  }

  return (
    <section aria-labelledby="builder-title" className="builder">
      <h1 id="builder-title">{automationId ? `Edit ${existing.data?.name ?? 'automation'}` : 'New automation'}</h1>
      <div className="row" role="tablist" aria-label="Editor view">
        <button
          type="button"
          role="tab"
          aria-selected={view === 'form'}
          className={view === 'form' ? '' : 'secondary'}
          onClick={() => switchView('form')}
        >
          Form
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={view === 'json'}
          className={view === 'json' ? '' : 'secondary'}
          onClick={() => switchView('json')}
        >
          JSON
        </button>
      </div>
      {inbound && <InboundPanel inbound={inbound} />}
      {serverError && (
        <p role="alert" className="error">
          {serverError.field ? `${serverError.field}: ` : ''}
          {serverError.message}
        </p>
      )}
      <div className="builder-grid">
        <div
          onFocus={(e) => {
            const t = e.target;
            if ((t instanceof HTMLInputElement && t.type === 'text') || t instanceof HTMLTextAreaElement) lastField.current = t;
          }}
        >
          {view === 'form' ? (
            <Form
              schema={schema.data}
              formData={definition}
              validator={validator}
              extraErrors={extraErrors as never}
              showErrorList={false}
              liveValidate={false}
              noHtml5Validate
              onChange={(e) => setDefinition(e.formData as Definition)}
              onSubmit={() => void save()}
            >
              <button type="submit" disabled={saving}>
                {saving ? 'Saving…' : 'Save'}
              </button>
            </Form>
          ) : (
            <div className="json-view">
              <label htmlFor="definition-json">Definition (JSON)</label>
              <textarea
                id="definition-json"
                className="code"
                rows={24}
                value={json}
                onChange={(e) => onJson(e.target.value)}
                spellCheck={false}
              />
              {jsonError && <p className="error">{jsonError}</p>}
              <button type="button" disabled={saving || jsonError !== null} onClick={() => void save()}>
                {saving ? 'Saving…' : 'Save'}
              </button>
            </div>
          )}
        </div>
        <aside aria-label="Variables" className="variables">
          <h2>Variables</h2>
          <p className="muted small">Click to insert into the last text field you edited.</p>
          {variables.map((g) => (
            <div key={g.group}>
              <h3>{g.group}</h3>
              <ul>
                {g.paths.map((p) => (
                  <li key={p}>
                    <button
                      type="button"
                      className="link"
                      onClick={() => lastField.current && insertAtCaret(lastField.current, `{{ ${p} }}`)}
                    >
                      {`{{ ${p} }}`}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {automationId && (
            <div className="test-run">
              <h2>Test run</h2>
              <label htmlFor="test-payload">Sample trigger payload (JSON)</label>
              <textarea
                id="test-payload"
                className="code"
                rows={6}
                value={payload}
                onChange={(e) => setPayload(e.target.value)}
                spellCheck={false}
              />
              <button type="button" onClick={() => void test()}>
                Run test
              </button>
              {testRun && (
                <div aria-label="Test run result">
                  <p>
                    Status: <strong>{testRun.status}</strong>
                  </p>
                  <ol>
                    {testRun.steps?.map((s) => (
                      <li key={s.id}>
                        {s.id}: {s.status}
                        {s.error ? ` — ${s.error.message}` : ''}
                        <pre className="code">{JSON.stringify(s.output ?? null, null, 2)}</pre>
                      </li>
                    ))}
                  </ol>
                </div>
              )}
            </div>
          )}
        </aside>
      </div>
    </section>
  );
}
