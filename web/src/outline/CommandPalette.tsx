import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { agentsQuery } from '../agents/api';
import { automationsQuery } from '../automations/api';
import { paletteProjectsQuery } from '../projects/api';
import { foldersQuery, useWorkspaces } from '../workspaces/api';
import { sendOutlineCommand, type OutlineCommand } from './commands';

/** One thing the palette offers: a place to go or a command to run. */
interface Entry {
  id: string;
  group: 'Commands' | 'Projects' | 'Automations' | 'Agents' | 'Go to';
  label: string;
  run: () => void;
}

/** The outline's commands, offered on a project's page. */
const OUTLINE_COMMANDS: [OutlineCommand, string][] = [
  ['add-task', 'Add a task'],
  ['search', 'Search tasks'],
  ['show-open', 'Show open tasks'],
  ['show-completed', 'Show completed tasks'],
  ['collapse-all', 'Collapse all'],
  ['expand-all', 'Expand all'],
  ['undo', 'Undo'],
  ['redo', 'Redo'],
];

/** Screens of the app. */
const SCREENS: [string, string][] = [
  ['/automations', 'Automations'],
  ['/runs', 'Runs'],
  ['/approvals', 'Approvals'],
  ['/agents', 'Agents'],
  ['/media', 'Media'],
  ['/settings/members', 'Members'],
  ['/settings/account', 'Account'],
  ['/settings/secrets', 'Secrets'],
  ['/settings/webhooks', 'Webhooks'],
];

/** Entries shown at most per group. */
const PER_GROUP = 8;

/** The caller's projects, automations and agents, read when the palette opens. */
function usePlaces(open: boolean) {
  const workspaces = useWorkspaces();
  const ids = (workspaces.data ?? []).map((w) => w.id);
  const projects = useQuery(paletteProjectsQuery(open));
  const automations = useQueries({ queries: ids.map((workspaceId) => ({ ...automationsQuery(workspaceId), enabled: open })) });
  const folders = useQueries({ queries: ids.map((workspaceId) => ({ ...foldersQuery(workspaceId), enabled: open })) });
  const folderIds = folders.flatMap((f) => (f.data ?? []).map((folder) => folder.id));
  const agents = useQueries({ queries: folderIds.map((folderId) => ({ ...agentsQuery(folderId), enabled: open })) });
  return {
    projects: projects.data ?? [],
    automations: automations.flatMap((a) => a.data ?? []),
    agents: agents.flatMap((a) => a.data ?? []),
  };
}

/** What the palette offers for `text` (every word must match), at most {@link PER_GROUP} a group; the outline's commands only `onProject`. */
function entriesFor(places: ReturnType<typeof usePlaces>, text: string, onProject: boolean, go: (to: string) => () => void): Entry[] {
  const all: Entry[] = [
    ...(onProject
      ? OUTLINE_COMMANDS.map(
          ([command, label]): Entry => ({ id: `c:${command}`, group: 'Commands', label, run: () => sendOutlineCommand(command) }),
        )
      : []),
    ...places.projects.map((p): Entry => ({ id: `p:${p.id}`, group: 'Projects', label: p.name, run: go(`/projects/${p.id}`) })),
    ...places.automations.map((a): Entry => ({ id: `a:${a.id}`, group: 'Automations', label: a.name, run: go(`/automations/${a.id}`) })),
    ...places.agents.map((a): Entry => ({ id: `g:${a.id}`, group: 'Agents', label: a.name, run: go(`/agents/${a.id}`) })),
    ...SCREENS.map(([to, label]): Entry => ({ id: `s:${to}`, group: 'Go to', label, run: go(to) })),
  ];
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = all.filter((e) => words.every((w) => `${e.label} ${e.group}`.toLowerCase().includes(w)));
  const counts = new Map<string, number>();
  return matching.filter((e) => {
    const n = (counts.get(e.group) ?? 0) + 1;
    counts.set(e.group, n);
    return n <= PER_GROUP;
  });
}

/**
 * The Ctrl/Cmd+K command palette (docs "Web app", "Command palette"): type to find a project, an
 * automation, an agent or a screen and go there, or run a command of the outline on screen
 * (add a task, search, show open or completed tasks, collapse or expand all, undo, redo).
 * ↑/↓ choose, Enter runs, Escape closes.
 */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const places = usePlaces(open);
  const onProject = location.pathname.startsWith('/projects/');

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((was) => !was);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const box = dialog.current;
    if (!box) return;
    if (open && !box.open) {
      setText('');
      setActive(0);
      box.showModal();
    } else if (!open && box.open) box.close();
  }, [open]);

  const entries = useMemo(() => entriesFor(places, text, onProject, (to) => () => navigate(to)), [text, places, onProject, navigate]);

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    setOpen(false);
    entry.run();
  };
  const current = Math.min(active, Math.max(entries.length - 1, 0));
  return (
    <dialog ref={dialog} className="command-palette" aria-label="Command palette" onClose={() => setOpen(false)}>
      {open && (
        <>
          <input
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-activedescendant={entries[current] ? `palette-${entries[current]!.id}` : undefined}
            aria-label="Go to or run"
            placeholder="Go to a project, automation, agent… or run a command"
            value={text}
            autoFocus
            onChange={(e) => {
              setText(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((current + (e.key === 'ArrowDown' ? 1 : -1) + entries.length) % Math.max(entries.length, 1));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                choose(entries[current]);
              }
            }}
          />
          <ul id="palette-list" role="listbox" aria-label="Results">
            {entries.map((e, i) => (
              <li
                key={e.id}
                id={`palette-${e.id}`}
                role="option"
                aria-selected={i === current}
                className={i === current ? 'active' : undefined}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(e)}
              >
                <span>{e.label}</span>
                <span className="muted small">{e.group}</span>
              </li>
            ))}
          </ul>
          {entries.length === 0 && <p className="muted small">Nothing matches “{text}”.</p>}
        </>
      )}
    </dialog>
  );
}
