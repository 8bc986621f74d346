/** The workspace selector of screens that work on one workspace at a time; nothing when there is only one to choose. */
export function WorkspaceSelect({
  workspaces,
  value,
  onChange,
}: {
  workspaces: readonly { id?: string; name?: string }[];
  value: string | undefined;
  onChange: (workspaceId: string) => void;
}) {
  if (workspaces.length < 2) return null;
  return (
    <label>
      Workspace
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}
