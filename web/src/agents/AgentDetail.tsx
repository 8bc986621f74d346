import { useNavigate, useParams } from 'react-router';
import { Trash2 } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { ActionMenu } from '../components/ActionMenu';
import { Avatar } from '../components/Avatar';
import { useConfirmation } from '../components/ConfirmDialog';
import { AgentSettings } from './AgentSettings';
import { Knowledge } from './Knowledge';
import { PublicAccess } from './PublicAccess';
import { RunCommand } from './RunCommand';
import { agentQuery, useDeleteAgent } from './api';
import { AGENT_READ_ONLY_REASON } from './types';
import { can, PermissionNote, useRoleInFolder } from '../components/permissions';

/**
 * One agent (docs "Web app"): its settings and commands, running a command and reading the
 * conversations, its knowledge, and its public page. Editing needs Collaborator, running a
 * command Participant; below that everything is shown read-only.
 */
export default function AgentDetail() {
  const { agentId = '' } = useParams();
  const agent = useQuery(agentQuery(agentId));
  const role = useRoleInFolder(agent.data?.space_id);
  const navigate = useNavigate();
  const confirmation = useConfirmation();
  const remove = useDeleteAgent(agentId);
  if (agent.isError) return <p className="error">{errorMessage(agent.error)}</p>;
  if (!agent.data) return <p className="muted">Loading…</p>;
  const canEdit = can(role, 'manageAgents');
  const a = agent.data;
  return (
    <section aria-labelledby="agent-title" className="agent">
      <div className="page-header">
        <h1 id="agent-title" className="agent-title">
          <span aria-hidden="true">
            <Avatar name={a.name} emoji={a.data.avatar.type === 'emoji' ? a.data.avatar.data.value : '🤖'} size="lg" />
          </span>
          {a.name}
        </h1>
        {canEdit && (
          <ActionMenu
            label="Agent actions"
            actions={[
              {
                label: 'Delete agent',
                icon: <Trash2 className="icon" aria-hidden="true" />,
                danger: true,
                onSelect: () =>
                  confirmation.ask({
                    title: `Delete “${a.name}”?`,
                    body: 'Its commands, conversations and public page go with it. This cannot be undone.',
                    confirmLabel: 'Delete agent',
                    onConfirm: () => remove.mutate(undefined, { onSuccess: () => navigate('/agents') }),
                  }),
              },
            ]}
          />
        )}
      </div>
      <PermissionNote role={role} action="manageAgents" id={AGENT_READ_ONLY_REASON} />
      {remove.isError && (
        <p role="alert" className="error">
          {errorMessage(remove.error)}
        </p>
      )}
      {confirmation.dialog}
      <div className="agent-grid">
        <AgentSettings key={a.id} agent={a} readOnly={!canEdit} />
        <div>
          <RunCommand agent={a} canRun={can(role, 'runAgentCommands')} />
          <PermissionNote role={role} action="runAgentCommands" />
          <Knowledge agent={a} readOnly={!canEdit} />
          <PublicAccess agentId={a.id} on={a.publicAccess} readOnly={!canEdit} />
        </div>
      </div>
    </section>
  );
}
