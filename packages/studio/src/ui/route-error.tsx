import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * What a page that failed to render shows instead of a blank screen; the usual cause is a new
 * build replacing the files an open tab still asks for, which a reload fixes.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : '';
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <h1>Something went wrong</h1>
        <p role="alert">This page could not be shown{detail ? `: ${detail}` : '.'}</p>
        <button type="button" className="primary" onClick={() => location.reload()}>
          Reload the page
        </button>
      </div>
    </main>
  );
}
