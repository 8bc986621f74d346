import { ItemTable } from '../components/ItemTable';
import { useState, type DragEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { useWorkspaces } from '../api/queries';
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

/**
 * Uploads one file with progress (XMLHttpRequest: fetch reports no upload progress), with the
 * session cookie, as `POST /api/v1/folders/{folderId}/medias`.
 * @throws ApiError from the error envelope.
 */
function uploadFile(folderId: string, file: File, onProgress: (loaded: number, total: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/folders/${encodeURIComponent(folderId)}/medias`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: { code?: string; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON
      }
      reject(new ApiError(xhr.status, body.code ?? `HTTP_${xhr.status}`, body.message ?? xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'the upload was interrupted'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
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
  const media = useQuery({
    queryKey: ['media', folderId],
    enabled: folderId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/folders/{folderId}/medias', { params: { path: { folderId: folderId! } } })).items,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/v1/medias/{mediaId}', { params: { path: { mediaId: id } } })),
    onSettled: () => queries.invalidateQueries({ queryKey: ['media', folderId] }),
  });

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
      await queries.invalidateQueries({ queryKey: ['media', folderId] });
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
