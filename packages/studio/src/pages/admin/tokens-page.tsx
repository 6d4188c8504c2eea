import type { ApiToken } from '@vellum/client';
import { useState, type FormEvent } from 'react';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../../queries/admin';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { CopyOnce } from '../../ui/copy-once';
import { ErrorMessage } from '../../ui/error-message';
import { ListTable } from '../../ui/list-table';
import { hasPermission, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { usePageTitle } from '../../ui/page-title';
import { when } from '../../ui/when';
import './admin.css';
import { PermissionPicker } from './permission-picker';

/**
 * API tokens (docs/api.md, "API tokens"): the list, a new token with a permission picker and an
 * optional expiry (the token itself shown once, with copy), and revoking with a confirmation.
 */
export default function TokensPage() {
  usePageTitle('API tokens');
  const { session, ok } = useAllowed(hasPermission('tokens:read'));
  const tokens = useApiTokens(ok);
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ token: string; apiToken: ApiToken }>();
  const create = useCreateApiToken();
  if (!ok) return <NotAllowed title="API tokens" needs="the tokens:read permission" />;
  const mayWrite = hasPermission('tokens:write')(session);
  const mayDelete = hasPermission('tokens:delete')(session);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCreated(undefined);
    create.mutate(
      {
        name: name.trim(),
        permissions,
        // The end of the chosen day, local time, sent with its zone (docs/api.md: `expiresAt` needs one).
        expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : undefined,
      },
      {
        onSuccess: (result) => {
          setCreated(result);
          setName('');
          setPermissions([]);
          setExpires('');
        },
      },
    );
  };
  return (
    <>
      <h1>API tokens</h1>
      {created && (
        <section className="panel stack" aria-labelledby="new-token-title">
          <h2 id="new-token-title">Token “{created.apiToken.name}” created</h2>
          <p>Copy the token now: it is shown only this once, and only its hash is kept.</p>
          <CopyOnce label="New API token" value={created.token} />
          <div className="row">
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </section>
      )}
      <section aria-labelledby="token-list-title">
        <h2 id="token-list-title">Tokens</h2>
        <ListTable
          label="API tokens"
          columns={['Name', 'Permissions', 'Expires', 'Last used', 'Created']}
          actions
          list={tokens}
          empty="No API tokens yet."
        >
          {(t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.permissions.join(', ')}</td>
              <td>{t.expiresAt ? when(t.expiresAt) : 'Never'}</td>
              <td>{when(t.lastUsedAt)}</td>
              <td>{when(t.createdAt)}</td>
              <td>
                {mayDelete && (
                  <ConfirmDialog
                    trigger={
                      <button type="button" aria-label={`Revoke ${t.name}`}>
                        Revoke
                      </button>
                    }
                    title={`Revoke “${t.name}”?`}
                    confirmLabel="Revoke token"
                    onConfirm={() => revoke.mutateAsync(t.id)}
                  >
                    <p>Programs using this token will be refused from now on. This cannot be undone.</p>
                  </ConfirmDialog>
                )}
              </td>
            </tr>
          )}
        </ListTable>
      </section>
      {mayWrite && (
        <form className="panel stack" onSubmit={submit} aria-labelledby="create-token-title">
          <h2 id="create-token-title">New token</h2>
          <label>
            Name
            <input type="text" required value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <PermissionPicker session={session} value={permissions} onChange={setPermissions} />
          <label>
            Expires on (empty: never)
            <input type="date" value={expires} min={new Date().toISOString().slice(0, 10)} onChange={(e) => setExpires(e.target.value)} />
          </label>
          <ErrorMessage error={create.error} />
          <div className="row">
            <button type="submit" className="primary" disabled={create.isPending || !name.trim() || permissions.length === 0}>
              Create token
            </button>
          </div>
        </form>
      )}
    </>
  );
}
