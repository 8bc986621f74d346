import { useQuery } from '@tanstack/react-query';
import { useMe } from '../profile/api';
import { presenceQuery } from './api';
import { Avatar } from '../components/Avatar';
import './presence.css';

/** Avatars shown before the rest are summed up as "+N". */
const MAX_AVATARS = 5;

/**
 * Who else has this project open right now (docs "Web app", "Presence"), in the project header:
 * up to five avatars in the order people arrived, then "+N" for the rest; each named by its
 * label and tooltip. The viewer is left out (as Figma does); nothing is shown when no one else is
 * here. Kept current by the live stream, so it changes as people open and leave the project.
 */
export function PresenceAvatars({ projectId }: { projectId: string }) {
  const me = useMe();
  const presence = useQuery(presenceQuery(projectId));
  const myHandle = me.data?.item.handle;
  const others = (presence.data ?? []).filter((p) => p.handle !== myHandle);
  if (!me.data || others.length === 0) return null;
  const shown = others.slice(0, MAX_AVATARS);
  const rest = others.slice(MAX_AVATARS);
  return (
    <ul className="presence" aria-label="Also here">
      {shown.map((p) => (
        <li key={p.handle} title={`${p.displayName} (@${p.handle})`}>
          <Avatar name={p.displayName} />
        </li>
      ))}
      {rest.length > 0 && (
        <li title={rest.map((p) => p.displayName).join(', ')}>
          <span
            className="avatar presence-more"
            role="img"
            aria-label={`${rest.length} more: ${rest.map((p) => p.displayName).join(', ')}`}
          >
            +{rest.length}
          </span>
        </li>
      )}
    </ul>
  );
}
