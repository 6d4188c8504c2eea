import { usePageTitle } from '../../ui/page-title';

/** API tokens (placeholder until the administration pages land). */
export default function TokensPage() {
  usePageTitle('API tokens');
  return (
    <>
      <h1>API tokens</h1>
      <p className="muted">API token management is coming.</p>
    </>
  );
}
