import { Link } from 'react-router';
import { SearchX } from 'lucide-react';
import { EmptyState } from './EmptyState';

/**
 * The in-app "not found" screen: for a path the app does not know, and for a project, automation,
 * agent … that does not exist or that the signed-in person may not see (`what` names it).
 */
export function NotFound({ what }: { what?: string }) {
  return (
    <section>
      <EmptyState
        level={1}
        icon={SearchX}
        title={what ? `${what} not found` : 'Page not found'}
        action={
          <Link className="btn btn-primary" to="/">
            Go to the home screen
          </Link>
        }
      >
        {what
          ? `This ${what.toLowerCase()} does not exist, was deleted, or you do not have access to it.`
          : 'There is nothing at this address. Check the link, or start from the home screen.'}
      </EmptyState>
    </section>
  );
}
