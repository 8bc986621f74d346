import { useOutletContext } from 'react-router';

/** What the signed-in frame (routes/Layout.tsx) gives its screens: the sidebar's workspace and how to switch it. */
export interface WorkspaceContext {
  /** The workspace the sidebar shows; undefined until the workspaces are loaded, or when the person has none. */
  workspaceId: string | undefined;
  /** Switches the sidebar (and the screens that follow it) to another of the person's workspaces. */
  chooseWorkspace: (workspaceId: string) => void;
}

/** The {@link WorkspaceContext} of the current screen. */
export function useWorkspaceContext(): WorkspaceContext {
  return useOutletContext<WorkspaceContext>();
}
