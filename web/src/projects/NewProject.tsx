import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { projectKeys } from '../api/keys';
import { createProject, templatesQuery } from './api';
import { deniedProps, PermissionNote, useRoleInFolder } from '../components/permissions';

type Mode = 'empty' | 'markdown' | 'template';

/**
 * Create a project in a folder: empty, from markdown (headings and lists become the task tree), or
 * from a template. Below Collaborator the form shows why it cannot be submitted.
 */
export function NewProject() {
  const { folderId = '' } = useParams();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [mode, setMode] = useState<Mode>('empty');
  const [name, setName] = useState('');
  const [markdown, setMarkdown] = useState('# Launch plan\n\n- Write the brief\n  - Collect numbers\n- [x] Book the room\n');
  const [templateId, setTemplateId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const role = useRoleInFolder(folderId);
  const templates = useQuery(templatesQuery(folderId));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const created = await createProject(
        folderId,
        mode === 'template' ? { templateId } : { markdown: mode === 'empty' ? `# ${name.replace(/[\r\n]+/g, ' ')}` : markdown },
      );
      await queries.invalidateQueries({ queryKey: projectKeys.inFolder(folderId) });
      navigate(`/projects/${created.id}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not create the project');
    }
  }

  return (
    <section aria-labelledby="new-project-title">
      <h1 id="new-project-title">New project</h1>
      <form className="card wide" onSubmit={submit}>
        <fieldset>
          <legend>Start from</legend>
          {(
            [
              ['empty', 'Nothing (an empty project)'],
              ['markdown', 'Markdown (headings and lists become tasks)'],
              ['template', 'A template'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="check">
              <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
              {label}
            </label>
          ))}
        </fieldset>
        {mode === 'empty' && (
          <label>
            Name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
        )}
        {mode === 'markdown' && (
          <>
            <label htmlFor="project-markdown">Markdown</label>
            <textarea id="project-markdown" className="code" rows={12} value={markdown} onChange={(e) => setMarkdown(e.target.value)} />
          </>
        )}
        {mode === 'template' && (
          <label>
            Template
            <select required value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
              <option value="">Choose a template</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {templates.data?.length === 0 && (
              <span className="muted small">No templates in this folder yet: open a project and choose “Save as template”.</span>
            )}
          </label>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <PermissionNote role={role} action="manageProjects" id="new-project-denied" />
        <button type="submit" {...deniedProps(role, 'manageProjects', 'new-project-denied')}>
          Create project
        </button>
      </form>
    </section>
  );
}
