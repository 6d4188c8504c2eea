import { usePageTitle } from '../../ui/page-title';

/** The audit log (placeholder until the administration pages land). */
export default function AuditPage() {
  usePageTitle('Audit log');
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">The audit log is coming.</p>
    </>
  );
}
