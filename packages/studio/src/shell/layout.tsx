import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AccountMenu } from './account-menu';
import { GlobalSearch } from './global-search';
import { Sidebar } from './sidebar';

/**
 * The studio's frame (docs/studio.md, "The shell"): a skip link, the header (landmark `banner`)
 * with the search box and account menu, the navigation (landmark `navigation`) and the page
 * (landmark `main`, the skip link's target).
 */
export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href={import.meta.env.BASE_URL}>
          Vellum Studio
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
