import type { Settings } from '@vellum/client';
import { useEffect, useState, type FormEvent } from 'react';
import { useSaveSettings, useSettings } from '../../queries/admin';
import { ErrorMessage } from '../../ui/error-message';
import { hasPermission, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { usePageTitle } from '../../ui/page-title';
import './admin.css';

/**
 * Instance settings (`/config/settings`, docs/api.md "Instance settings and studio
 * configuration"): every field the server has. Read-only without `settings:write`.
 */
export default function SettingsPage() {
  usePageTitle('Settings');
  const { session, ok } = useAllowed(hasPermission('settings:read'));
  const settings = useSettings(ok);
  const [form, setForm] = useState<Settings>();
  useEffect(() => {
    if (settings.data) setForm(settings.data);
  }, [settings.data]);
  const save = useSaveSettings();
  if (!ok) return <NotAllowed title="Settings" needs="the settings:read permission" />;
  const mayWrite = hasPermission('settings:write')(session);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form) save.mutate({ ...form, publicUrl: form.publicUrl?.trim() ? form.publicUrl.trim() : null });
  };
  return (
    <>
      <h1>Settings</h1>
      <ErrorMessage error={settings.error} />
      {form && (
        <form className="panel stack" onSubmit={submit} aria-label="Instance settings">
          {!mayWrite && <p className="muted">You may read the settings but not change them (it needs settings:write).</p>}
          <fieldset disabled={!mayWrite} className="stack">
            <legend>Instance</legend>
            <label className="inline">
              <input type="checkbox" checked={form.mfaRequired} onChange={(e) => setForm({ ...form, mfaRequired: e.target.checked })} />
              Require a second factor for every user (mfaRequired)
            </label>
            <p className="muted">Users without a second factor set one up at their next sign-in.</p>
            <label>
              Site name
              <input type="text" required value={form.siteName} onChange={(e) => setForm({ ...form, siteName: e.target.value })} />
            </label>
            <label>
              Public URL (used in mails)
              <input
                type="url"
                placeholder="https://cms.example.com"
                value={form.publicUrl ?? ''}
                onChange={(e) => setForm({ ...form, publicUrl: e.target.value })}
              />
            </label>
            <label>
              Default locale
              <input
                type="text"
                required
                value={form.defaultLocale}
                onChange={(e) => setForm({ ...form, defaultLocale: e.target.value })}
              />
            </label>
          </fieldset>
          <ErrorMessage error={save.error} />
          {save.isSuccess && !save.isPending && <p role="status">Settings saved.</p>}
          {mayWrite && (
            <div className="row">
              <button type="submit" className="primary" disabled={save.isPending}>
                Save settings
              </button>
            </div>
          )}
        </form>
      )}
    </>
  );
}
