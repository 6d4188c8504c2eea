import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter } from 'react-router';
import { RequireAuth } from './auth/require-auth';
import SignInPage from './auth/sign-in-page';
import { Layout } from './shell/layout';
import { RouteError } from './ui/route-error';

/**
 * The studio's pages (docs/studio.md, "Pages"). Every page but sign-in is its own chunk
 * (`React.lazy`), so the first page loads only the shell.
 */
const HomePage = lazy(() => import('./pages/home/home-page'));
const DocumentListPage = lazy(() => import('./pages/documents/list/document-list-page'));
const DocumentEditPage = lazy(() => import('./pages/documents/document-edit-page'));
const SchedulesPage = lazy(() => import('./pages/schedules/schedules-page'));
const MediaPage = lazy(() => import('./pages/media/media-page'));
const UsersPage = lazy(() => import('./pages/admin/users-page'));
const TokensPage = lazy(() => import('./pages/admin/tokens-page'));
const SettingsPage = lazy(() => import('./pages/admin/settings-page'));
const AuditPage = lazy(() => import('./pages/admin/audit-page'));
const WebhooksPage = lazy(() => import('./pages/admin/webhooks-page'));
const WebhookPage = lazy(() => import('./pages/admin/webhook-page'));
const AccountPage = lazy(() => import('./pages/account/account-page'));
const NotFoundPage = lazy(() => import('./pages/home/not-found-page'));
const ResetPasswordPage = lazy(() => import('./auth/reset-password-page'));
const ClaimPage = lazy(() => import('./auth/claim-page'));
const IdpCallbackPage = lazy(() => import('./auth/idp-callback-page'));
const DevicePage = lazy(() => import('./oauth/device-page'));
const AuthorizePage = lazy(() => import('./oauth/authorize-page'));

const loading = (
  <p className="loading" role="status">
    Loading…
  </p>
);
const page = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={loading}>
    <Page />
  </Suspense>
);

export const router = createBrowserRouter(
  [
    {
      errorElement: <RouteError />,
      children: [
        { path: '/sign-in', element: <SignInPage /> },
        { path: '/reset-password', element: page(ResetPasswordPage) },
        { path: '/accept-invite', element: page(ResetPasswordPage) },
        { path: '/claim', element: page(ClaimPage) },
        { path: '/auth/idp/callback', element: page(IdpCallbackPage) },
        { path: '/auth/device', element: <RequireAuth studio={false}>{page(DevicePage)}</RequireAuth> },
        { path: '/auth/authorize', element: <RequireAuth studio={false}>{page(AuthorizePage)}</RequireAuth> },
        {
          path: '/',
          element: (
            <RequireAuth>
              <Layout />
            </RequireAuth>
          ),
          children: [
            { index: true, element: <HomePage /> },
            { path: 'documents/:type', element: <DocumentListPage /> },
            { path: 'documents/:type/:id', element: <DocumentEditPage /> },
            { path: 'schedules', element: <SchedulesPage /> },
            { path: 'media', element: <MediaPage /> },
            { path: 'admin/users', element: <UsersPage /> },
            { path: 'admin/tokens', element: <TokensPage /> },
            { path: 'admin/settings', element: <SettingsPage /> },
            { path: 'admin/audit', element: <AuditPage /> },
            { path: 'admin/webhooks', element: <WebhooksPage /> },
            { path: 'admin/webhooks/:id', element: <WebhookPage /> },
            { path: 'account', element: <AccountPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/studio' },
);
