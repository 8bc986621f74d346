import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { Layout } from './routes/Layout';
import { Home } from './routes/Home';
import { SignIn } from './routes/SignIn';
import { NotFound } from './components/NotFound';
// In the first load anyway: the sidebar counts the approvals waiting.
import { Approvals } from './automations/Approvals';

/**
 * A screen loaded on first visit (its own chunk): the first load carries only the shell, the home
 * screen and sign-in; the outline, the builder (form generator, CodeMirror) and the rest come when
 * opened. `pick` chooses the named export.
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ReactNode {
  const Screen = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense
      fallback={
        <p className="muted" role="status">
          Loading…
        </p>
      }
    >
      <Screen />
    </Suspense>
  );
}

const builder = screen(
  () => import('./automations/Builder'),
  (m) => m.default,
);

/** Every screen of the app. The service answers index.html for these paths (server/src/http/web-app.ts). */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignIn /> },
  {
    path: '/forgot-password',
    element: screen(
      () => import('./routes/PasswordReset'),
      (m) => m.ForgotPassword,
    ),
  },
  {
    path: '/reset-password',
    element: screen(
      () => import('./routes/PasswordReset'),
      (m) => m.ResetPassword,
    ),
  },
  {
    path: '/verify-email',
    element: screen(
      () => import('./routes/VerifyEmail'),
      (m) => m.VerifyEmail,
    ),
  },
  {
    path: '/invite',
    element: screen(
      () => import('./routes/Invite'),
      (m) => m.Invite,
    ),
  },
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      {
        path: 'projects/:projectId',
        element: screen(
          () => import('./routes/ProjectOutline'),
          (m) => m.ProjectOutline,
        ),
      },
      {
        path: 'folders/:folderId/new-project',
        element: screen(
          () => import('./projects/NewProject'),
          (m) => m.NewProject,
        ),
      },
      {
        path: 'automations',
        element: screen(
          () => import('./automations/AutomationsList'),
          (m) => m.AutomationsList,
        ),
      },
      { path: 'automations/new', element: builder },
      {
        path: 'automations/:automationId',
        element: screen(
          () => import('./automations/AutomationDetail'),
          (m) => m.AutomationDetail,
        ),
      },
      { path: 'automations/:automationId/edit', element: builder },
      {
        path: 'automations/:automationId/runs/:runId',
        element: screen(
          () => import('./automations/RunTimeline'),
          (m) => m.RunTimeline,
        ),
      },
      {
        path: 'runs',
        element: screen(
          () => import('./automations/Runs'),
          (m) => m.Runs,
        ),
      },
      { path: 'approvals', element: <Approvals /> },
      {
        path: 'decide',
        element: screen(
          () => import('./automations/DecisionLink'),
          (m) => m.DecisionLink,
        ),
      },
      {
        path: 'media',
        element: screen(
          () => import('./media/Media'),
          (m) => m.Media,
        ),
      },
      {
        path: 'agents',
        element: screen(
          () => import('./agents/AgentsList'),
          (m) => m.AgentsList,
        ),
      },
      {
        path: 'agents/:agentId',
        element: screen(
          () => import('./agents/AgentDetail'),
          (m) => m.default,
        ),
      },
      {
        path: 'settings/webhooks',
        element: screen(
          () => import('./webhooks/Webhooks'),
          (m) => m.Webhooks,
        ),
      },
      {
        path: 'settings/webhooks/:webhookId',
        element: screen(
          () => import('./webhooks/Webhooks'),
          (m) => m.WebhookDeliveries,
        ),
      },
      {
        path: 'settings/members',
        element: screen(
          () => import('./settings/Members'),
          (m) => m.Members,
        ),
      },
      {
        path: 'settings/account',
        element: screen(
          () => import('./settings/Account'),
          (m) => m.Account,
        ),
      },
      {
        path: 'settings/oauth-apps',
        element: screen(
          () => import('./settings/OAuthApps'),
          (m) => m.OAuthApps,
        ),
      },
      {
        path: 'settings/connections',
        element: screen(
          () => import('./connections/Connections'),
          (m) => m.Connections,
        ),
      },
      {
        path: 'settings/secrets',
        element: screen(
          () => import('./settings/Secrets'),
          (m) => m.Secrets,
        ),
      },
      {
        path: 'profile',
        element: screen(
          () => import('./profile/Profile'),
          (m) => m.Profile,
        ),
      },
      {
        path: 'workspaces/new',
        element: screen(
          () => import('./workspaces/NewWorkspace'),
          (m) => m.NewWorkspace,
        ),
      },
      {
        path: 'settings/workspace',
        element: screen(
          () => import('./workspaces/WorkspaceSettings'),
          (m) => m.WorkspaceSettings,
        ),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
