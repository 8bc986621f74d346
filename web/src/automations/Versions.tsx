import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { automationWrites, versionQuery, versionsQuery } from './api';
import { ItemTable } from '../components/ItemTable';
import { lineDiff, withContext } from './lineDiff';

/** The fields of `GET …/versions/{version}` that describe the version rather than the definition. */
const VERSION_DETAILS = new Set(['version', 'createdAt', 'current', 'author', 'message', 'redacted']);

/** A version's definition without the version's own details, pretty-printed. */
function definitionText(item: object): string {
  return JSON.stringify(Object.fromEntries(Object.entries(item).filter(([k]) => !VERSION_DETAILS.has(k))), null, 2);
}

/** One version's definition (without the version's own details), pretty-printed. */
function useDefinitionText(automationId: string, version: number | undefined) {
  return useQuery({ ...versionQuery(automationId, version), select: definitionText });
}

/** The changes between two versions' definitions as a unified line diff (unchanged runs shortened). */
function VersionDiff({ automationId, from, to }: { automationId: string; from: number; to: number }) {
  const before = useDefinitionText(automationId, from);
  const after = useDefinitionText(automationId, to);
  const error = before.error ?? after.error;
  if (error) return <p className="error">{error instanceof ApiError ? error.message : 'Could not read the versions'}</p>;
  if (before.data === undefined || after.data === undefined) return <p className="muted">Loading…</p>;
  const lines = lineDiff(before.data, after.data);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <figure className="version-diff" aria-label={`Changes from v${from} to v${to}`}>
      <figcaption className="muted small">
        {added === 0 && removed === 0
          ? `v${from} and v${to} have the same definition.`
          : `v${from} → v${to}: ${added} line${added === 1 ? '' : 's'} added, ${removed} removed.`}
      </figcaption>
      {(added > 0 || removed > 0) && (
        // Focusable: the block scrolls when long (keyboard users scroll it too).
        <pre className="code diff" tabIndex={0}>
          {withContext(lines).map((l, i) =>
            l.kind === 'gap' ? (
              <span key={i} className="diff-gap">
                {`  … ${l.count} unchanged line${l.count === 1 ? '' : 's'}\n`}
              </span>
            ) : l.kind === 'added' ? (
              <ins key={i}>{`+ ${l.text}\n`}</ins>
            ) : l.kind === 'removed' ? (
              <del key={i}>{`- ${l.text}\n`}</del>
            ) : (
              <span key={i}>{`  ${l.text}\n`}</span>
            ),
          )}
        </pre>
      )}
    </figure>
  );
}

/** "Restore vN", then a confirmation naming the version it will become, or "Keep current". */
function RestoreButton({ version, next, pending, onConfirm }: { version: number; next: number; pending: boolean; onConfirm: () => void }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className="secondary" disabled={pending} onClick={() => setConfirming(true)}>
        Restore v{version}
      </button>
    );
  return (
    <span role="group" aria-label={`Restore v${version}?`} className="confirm-restore">
      <span className="small">
        v{version}’s definition becomes v{next}; runs already started keep their version.
      </span>{' '}
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          setConfirming(false);
          onConfirm();
        }}
      >
        Restore as v{next}
      </button>{' '}
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Keep current
      </button>
    </span>
  );
}

/**
 * The kept versions of an automation (docs "Web app", "Versions"): who saved each and when, the
 * changes between any two, and (Owners) a restore, confirmed first, which saves that version's
 * definition as the newest version.
 */
export function Versions({ automationId, owner }: { automationId: string; owner: boolean }) {
  const queries = useQueryClient();
  const versions = useQuery(versionsQuery(automationId));
  const [from, setFrom] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  const [comparing, setComparing] = useState(false);
  const [restored, setRestored] = useState<string | null>(null);
  const restore = useMutation({
    mutationFn: (version: number) => automationWrites.restoreVersion(automationId, version),
    onSuccess: (item, version) => {
      setRestored(`v${version} restored as v${item.version}.`);
      setComparing(false);
      setFrom(undefined);
      setTo(undefined);
    },
    onSettled: () => queries.invalidateQueries(),
  });
  const list = versions.data;
  const newest = list?.[0]?.version ?? 0;
  // Until chosen: the version before the newest against the newest.
  const older = from ?? list?.[1]?.version;
  const newer = to ?? list?.[0]?.version;
  const options = list?.map((v) => (
    <option key={v.version} value={v.version}>
      v{v.version}
      {v.current ? ' (current)' : ''}
    </option>
  ));
  return (
    <>
      <h2>Versions</h2>
      {restore.error && (
        <p role="alert" className="error">
          {restore.error instanceof ApiError ? restore.error.message : 'Could not restore'}
        </p>
      )}
      {restored && (
        <p role="status" className="muted">
          {restored}
        </p>
      )}
      {list && list.length > 1 && older !== undefined && newer !== undefined && (
        <div className="version-compare">
          <div className="row">
            <label>
              Compare{' '}
              <select aria-label="Older version" value={older} onChange={(e) => setFrom(Number(e.target.value))}>
                {options}
              </select>
            </label>
            <label>
              with{' '}
              <select aria-label="Newer version" value={newer} onChange={(e) => setTo(Number(e.target.value))}>
                {options}
              </select>
            </label>
            <button type="button" className="secondary" aria-expanded={comparing} onClick={() => setComparing((c) => !c)}>
              {comparing ? 'Hide changes' : 'Show changes'}
            </button>
          </div>
          {comparing && <VersionDiff automationId={automationId} from={older} to={newer} />}
        </div>
      )}
      <ItemTable
        items={list}
        empty="No versions."
        columns={owner ? ['Version', 'Saved', 'Note', 'Actions'] : ['Version', 'Saved', 'Note']}
        row={(v) => (
          <tr key={v.version}>
            <td>
              v{v.version}
              {v.current ? <strong> (current)</strong> : null}
            </td>
            <td>
              {new Date(v.createdAt).toLocaleString()}
              {v.author ? ` by @${v.author.handle}` : ''}
            </td>
            <td>{v.message ?? ''}</td>
            {owner && (
              <td>
                {!v.current && (
                  <RestoreButton
                    version={v.version}
                    next={newest + 1}
                    pending={restore.isPending}
                    onConfirm={() => restore.mutate(v.version)}
                  />
                )}
              </td>
            )}
          </tr>
        )}
      />
    </>
  );
}
