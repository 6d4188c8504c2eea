import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useStudioConfig } from '../queries/config';
import { AccountMenu } from './account-menu';
import { GlobalSearch } from './global-search';
import { Sidebar } from './sidebar';
import { LiveChanges } from '../live/live-changes';

/**
 * The studio's frame (docs/studio.md, "The shell"): a skip link, the header (landmark `banner`)
 * with the site name, the search box and account menu, the navigation (landmark `navigation`)
 * and the page (landmark `main`, the skip link's target).
 */
export function Layout() {
  const config = useStudioConfig();
  // The instance's site name (`PUT /config/settings`); "Vellum" only when it cannot be read.
  const siteName = config.data?.siteName ?? (config.isError ? 'Vellum' : '');
  return (
    <div className="shell">
      <LiveChanges />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href={import.meta.env.BASE_URL}>
          {siteName} <span className="brand-suffix">Studio</span>
        </a>
        <GlobalSearch />
        <AccountMenu />
      </header>
      <Sidebar />
      <main id="main" tabIndex={-1} className="content">
        <Suspense
          fallback={
            <p className="loading" role="status">
              Loading…
            </p>
          }
        >
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
