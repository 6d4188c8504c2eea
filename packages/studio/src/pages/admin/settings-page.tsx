import { usePageTitle } from '../../ui/page-title';

/** Instance settings (placeholder until the administration pages land). */
export default function SettingsPage() {
  usePageTitle('Settings');
  return (
    <>
      <h1>Settings</h1>
      <p className="muted">Instance settings are coming.</p>
    </>
  );
}
