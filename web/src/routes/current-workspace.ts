import { useState } from 'react';

/** Where the chosen workspace is remembered between visits (this browser only). */
const STORAGE_KEY = 'taskspace.workspace';

function remembered(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The workspace the sidebar shows, chosen with the workspace switcher and remembered in
 * localStorage: the remembered one when the person still belongs to it, else their first.
 * Returns `[workspaceId, choose]`; the id is undefined until the workspaces are loaded.
 */
export function useCurrentWorkspace(workspaces: readonly { id: string }[] | undefined): [string | undefined, (id: string) => void] {
  const [chosen, setChosen] = useState<string | null>(remembered);
  const choose = (id: string) => {
    setChosen(id);
    try {
      window.localStorage.setItem(STORAGE_KEY, id);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
  };
  if (!workspaces || workspaces.length === 0) return [undefined, choose];
  const id = workspaces.some((w) => w.id === chosen) ? chosen! : workspaces[0]!.id;
  return [id, choose];
}
