import { lazy, Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { Layout } from './routes/Layout';
import { Home } from './routes/Home';
import { ProjectOutline } from './routes/ProjectOutline';
import { SignIn } from './routes/SignIn';
import { Invite } from './routes/Invite';
import { AutomationsList } from './automations/AutomationsList';
import { AutomationDetail } from './automations/AutomationDetail';
import { RunTimeline } from './automations/RunTimeline';
import { Approvals } from './automations/Approvals';
import { Runs } from './automations/Runs';
import { DecisionLink } from './automations/DecisionLink';
import { WebhookDeliveries, Webhooks } from './webhooks/Webhooks';
import { Media } from './media/Media';
import { NewProject } from './projects/NewProject';
import { Members } from './settings/Members';
import { Account } from './settings/Account';
import { OAuthApps } from './settings/OAuthApps';
import { Secrets } from './settings/Secrets';
import { AgentsList } from './agents/AgentsList';

// The builder carries the form generator and its validator: loaded only when opened.
const Builder = lazy(() => import('./automations/Builder'));
// The agent page carries the markdown renderer: loaded only when opened.
const AgentDetail = lazy(() => import('./agents/AgentDetail'));
const builder = (
  <Suspense fallback={<p className="muted">Loading the builder…</p>}>
    <Builder />
  </Suspense>
);

/** Every screen of the app. The service answers index.html for these paths. */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignIn /> },
  { path: '/invite', element: <Invite /> },
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'projects/:projectId', element: <ProjectOutline /> },
      { path: 'folders/:folderId/new-project', element: <NewProject /> },
      { path: 'automations', element: <AutomationsList /> },
      { path: 'automations/new', element: builder },
      { path: 'automations/:automationId', element: <AutomationDetail /> },
      { path: 'automations/:automationId/edit', element: builder },
      { path: 'automations/:automationId/runs/:runId', element: <RunTimeline /> },
      { path: 'runs', element: <Runs /> },
      { path: 'approvals', element: <Approvals /> },
      { path: 'decide', element: <DecisionLink /> },
      { path: 'media', element: <Media /> },
      { path: 'agents', element: <AgentsList /> },
      {
        path: 'agents/:agentId',
        element: (
          <Suspense fallback={<p className="muted">Loading the agent…</p>}>
            <AgentDetail />
          </Suspense>
        ),
      },
      { path: 'settings/webhooks', element: <Webhooks /> },
      { path: 'settings/webhooks/:webhookId', element: <WebhookDeliveries /> },
      { path: 'settings/members', element: <Members /> },
      { path: 'settings/account', element: <Account /> },
      { path: 'settings/oauth-apps', element: <OAuthApps /> },
      { path: 'settings/secrets', element: <Secrets /> },
    ],
  },
]);
