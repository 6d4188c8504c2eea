import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useStudioConfig } from '../queries/config';
import { MenuIcon } from '../ui/icons';
import { ToastProvider } from '../ui/toast';
import { AccountMenu } from './account-menu';
import { GlobalSearch } from './global-search';
import { Sidebar } from './sidebar';
import { LiveChanges } from '../live/live-changes';

const NAV_ID = 'studio-nav';

/**
 * The studio's frame (docs/studio.md, "The shell"): a skip link, the header (landmark `banner`)
 * with the site name, the search box and account menu, the navigation (landmark `navigation`)
 * and the page (landmark `main`, the skip link's target). On a phone the navigation opens from
 * the menu button and closes on the next page or Escape (docs/studio.md, "Small screens").
 */
export function Layout() {
  const config = useStudioConfig();
  // The instance's site name (`PUT /config/settings`); "Vellum" only when it cannot be read.
  const siteName = config.data?.siteName ?? (config.isError ? 'Vellum' : '');
  const [navOpen, setNavOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  // A link followed: the page it opens is what the user wants to see, not the menu.
  useEffect(() => setNavOpen(false), [pathname]);
  return (
    <ToastProvider>
      <div
        className="shell"
        data-nav-open={navOpen}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || !navOpen || !(e.target instanceof Node) || !document.getElementById(NAV_ID)?.contains(e.target)) return;
          setNavOpen(false);
          toggle.current?.focus();
        }}
      >
        <LiveChanges />
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="topbar">
          <button
            ref={toggle}
            type="button"
            className="quiet icon-button nav-toggle"
            aria-label="Menu"
            aria-expanded={navOpen}
            aria-controls={NAV_ID}
            onClick={() => setNavOpen(!navOpen)}
          >
            <MenuIcon />
          </button>
          <a className="brand" href={import.meta.env.BASE_URL}>
            {siteName} <span className="brand-suffix">Studio</span>
          </a>
          <GlobalSearch />
          <AccountMenu />
        </header>
        <Sidebar id={NAV_ID} />
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
    </ToastProvider>
  );
}
