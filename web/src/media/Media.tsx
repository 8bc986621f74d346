import { ItemTable } from '../components/ItemTable';
import { useState, type DragEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { mediaKeys } from '../api/keys';
import { useWorkspaces } from '../workspaces/api';
import { mediaQuery, uploadFile, useDeleteMedia } from './api';
import { WorkspaceSelect } from '../components/WorkspaceSelect';
import { can, PermissionNote } from '../components/permissions';

interface Upload {
  id: string;
  name: string;
  loaded: number;
  total: number;
  error?: string;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A folder's media: drag-and-drop upload with progress, list, download and delete (upload and delete: Collaborators and above). */
export function Media() {
  const workspaces = useWorkspaces();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const folderId = chosen ?? workspaces.data?.[0]?.id;
  // Known only once the workspaces are read: until then there is nowhere to upload to.
  const role = workspaces.data?.find((w) => w.id === folderId)?.role;
  const canWrite = folderId !== undefined && can(role, 'manageMedia');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const queries = useQueryClient();
  const media = useQuery(mediaQuery(folderId));
  const remove = useDeleteMedia(folderId);

  async function upload(files: FileList | File[]) {
    if (!folderId) return;
    for (const file of Array.from(files)) {
      const id = crypto.randomUUID();
      setUploads((u) => [...u, { id, name: file.name, loaded: 0, total: file.size }]);
      const update = (patch: Partial<Upload>) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, ...patch } : x)));
      try {
        await uploadFile(folderId, file, (loaded, total) => update({ loaded, total }));
        setUploads((u) => u.filter((x) => x.id !== id));
      } catch (e) {
        update({ error: e instanceof ApiError ? e.message : 'Upload failed' });
      }
      await queries.invalidateQueries({ queryKey: mediaKeys.inFolder(folderId) });
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (canWrite) void upload(e.dataTransfer.files);
  };

  return (
    <section aria-labelledby="media-title">
      <h1 id="media-title">Media</h1>
      <WorkspaceSelect workspaces={workspaces.data ?? []} value={folderId} onChange={setChosen} />
      <PermissionNote role={role} action="manageMedia" />
      {canWrite && (
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p>Drop files here, or</p>
          <label className="button">
            choose files
            <input type="file" multiple className="visually-hidden" onChange={(e) => e.target.files && void upload(e.target.files)} />
          </label>
        </div>
      )}
      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="uploads">
          {uploads.map((u) => (
            <li key={u.id}>
              {u.name}{' '}
              {u.error ? (
                <span className="error" role="alert">
                  {u.error}
                </span>
              ) : (
                <progress max={u.total || 1} value={u.loaded} aria-label={`Uploading ${u.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      <ItemTable
        items={media.data}
        empty="No media yet."
        columns={['Name', 'Kind', 'Size', 'Actions']}
        row={(m) => (
          <tr key={m.id}>
            <td>{m.name}</td>
            <td>{m.kind}</td>
            <td>{bytes(m.size)}</td>
            <td className="row">
              <a href={`/api/v1/medias/${encodeURIComponent(m.id)}/content`} download={m.name}>
                Download
              </a>
              {canWrite && (
                <button type="button" className="secondary" onClick={() => remove.mutate(m.id)} aria-label={`Delete ${m.name}`}>
                  Delete
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
