import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { useWorkspaces } from '../api/queries';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ItemTable } from '../components/ItemTable';
import { WorkspaceSelect } from '../components/WorkspaceSelect';
import { ConnectionForm } from './ConnectionForm';
import { OAuthAppsPanel } from './OAuthAppsPanel';
import { Reconnect } from './Reconnect';
import { useConnections, usePieces, useRefreshConnections, type Connection } from './api';

const EDITORS = new Set(['Owner', 'Collaborator']);

/**
 * Settings → Connections (docs/web-app.md "Connections"; docs/integrations.md "Connections"): the
 * workspace's connections of pieces. Every member sees the list; Collaborators and Owners make
 * them (each way a piece connects, OAuth2 through the provider's consent), test, rename and
 * delete them; Owners register the OAuth apps. A value is never shown after it is saved.
 */
export function Connections() {
  const workspaces = useWorkspaces();
  const [chosen, setChosen] = useState<string | null>(null);
  const workspace = workspaces.data?.find((w) => w.id === chosen) ?? workspaces.data?.[0];
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Connections</h1>
      <p className="muted">Automation steps of integrations (pieces) authenticate with a connection of their workspace.</p>
      {!workspaces.data ? (
        <p className="muted">Loading…</p>
      ) : workspace ? (
        <>
          <WorkspaceSelect workspaces={workspaces.data} value={workspace.id} onChange={setChosen} />
          <WorkspaceConnections key={workspace.id} workspaceId={workspace.id} role={workspace.role ?? 'Viewer'} />
        </>
      ) : (
        <p className="muted">You are in no workspace.</p>
      )}
    </section>
  );
}

function WorkspaceConnections({ workspaceId, role }: { workspaceId: string; role: string }) {
  const connections = useConnections(workspaceId);
  const pieces = usePieces();
  const editor = EDITORS.has(role);
  const [piece, setPiece] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const names = new Map(pieces.data?.map((p) => [p.name, p.displayName]));
  return (
    <>
      {editor ? (
        <div className="card wide" role="group" aria-labelledby="connection-new-title">
          <h2 id="connection-new-title">New connection</h2>
          <label>
            Piece
            <select value={piece} onChange={(e) => setPiece(e.target.value)}>
              <option value="">Choose…</option>
              {pieces.data?.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.displayName}
                </option>
              ))}
            </select>
          </label>
          {piece && (
            <ConnectionForm
              key={piece}
              workspaceId={workspaceId}
              piece={piece}
              onCreated={(c) => {
                setMade(`Connection ${c.name} made.`);
                setPiece('');
              }}
            />
          )}
          {made && <p role="status">{made}</p>}
        </div>
      ) : (
        <p className="help permission-note">Making and changing connections needs the Collaborator or Owner role.</p>
      )}
      <ItemTable
        items={connections.data}
        empty="No connections yet."
        columns={editor ? ['Name', 'Piece', 'Type', 'Made', 'Actions'] : ['Name', 'Piece', 'Type', 'Made']}
        row={(c) => (
          <ConnectionRow key={c.id} workspaceId={workspaceId} connection={c} piece={names.get(c.piece) ?? c.piece} editor={editor} />
        )}
      />
      {role === 'Owner' && (
        <OAuthAppsPanel workspaceId={workspaceId} pieces={(pieces.data ?? []).filter((p) => p.authTypes.includes('OAUTH2'))} />
      )}
    </>
  );
}

function ConnectionRow({
  workspaceId,
  connection: c,
  piece,
  editor,
}: {
  workspaceId: string;
  connection: Connection;
  piece: string;
  editor: boolean;
}) {
  const refresh = useRefreshConnections(workspaceId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const path = { params: { path: { workspaceId, id: c.id } } };
  const test = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/workspaces/{workspaceId}/connections/{id}/test', path)).item,
  });
  const rename = useMutation({
    mutationFn: async (name: string) =>
      unwrap(await api.PATCH('/api/v1/workspaces/{workspaceId}/connections/{id}', { ...path, body: { name } })),
    onSuccess: () => setRenaming(null),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/workspaces/{workspaceId}/connections/{id}', path)),
    onSettled: refresh,
  });
  const verdict = test.data
    ? test.data.checked
      ? test.data.valid
        ? 'Works'
        : `Refused: ${test.data.error ?? ''}`
      : 'Saved (the piece has no check)'
    : null;
  const error = test.error ?? rename.error ?? remove.error;
  return (
    <tr>
      <td>
        {renaming !== null ? (
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate(renaming);
            }}
          >
            <input
              aria-label={`New name of ${c.name}`}
              required
              maxLength={200}
              value={renaming}
              onChange={(e) => setRenaming(e.target.value)}
            />
            <button type="submit">Save name</button>
            <button type="button" className="secondary" onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </form>
        ) : (
          c.name
        )}
      </td>
      <td>{piece}</td>
      <td>{c.authType === 'OAUTH2' ? 'OAuth2' : c.authType.replace('_', ' ').toLowerCase()}</td>
      <td>
        {new Date(c.createdAt).toLocaleString()}
        {c.createdBy ? ` by @${c.createdBy}` : ''}
      </td>
      {editor && (
        <td>
          <div className="row">
            <button
              type="button"
              className="secondary"
              onClick={() => test.mutate()}
              disabled={test.isPending}
              aria-label={`Test ${c.name}`}
            >
              Test
            </button>
            <button type="button" className="secondary" onClick={() => setRenaming(c.name)} aria-label={`Rename ${c.name}`}>
              Rename
            </button>
            {c.authType === 'OAUTH2' && <Reconnect workspaceId={workspaceId} connection={c} />}
            <ConfirmDelete name={c.name} label={`Delete the connection ${c.name}`} onConfirm={() => remove.mutate()} />
          </div>
          {verdict && <p role="status">{verdict}</p>}
          {error && (
            <p role="alert" className="error">
              {errorMessage(error)}
            </p>
          )}
        </td>
      )}
    </tr>
  );
}
