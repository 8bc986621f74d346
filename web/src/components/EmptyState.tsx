import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

/**
 * What a list shows when it has nothing yet: an icon, a title ("No projects yet"), one sentence on
 * what the thing is for, and the action that creates the first one. `level` 1 when it is the
 * screen's only heading, 3 under a section's own heading.
 */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  level = 2,
}: {
  icon?: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  level?: 1 | 2 | 3;
}) {
  const Heading = level === 1 ? 'h1' : level === 2 ? 'h2' : 'h3';
  return (
    <div className="empty-state">
      {Icon && <Icon className="icon" aria-hidden="true" />}
      <Heading>{title}</Heading>
      {children && <p>{children}</p>}
      {action && <div className="btn-row">{action}</div>}
    </div>
  );
}
