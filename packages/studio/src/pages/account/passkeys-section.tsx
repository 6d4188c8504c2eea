import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client } from '../../api/client';
import { AddPasskeyButton } from '../../auth/add-passkey-button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { useAction } from '../../ui/use-action';
import { when } from '../../ui/when';

/** Passkeys (docs/api.md, "Passkeys"): add one (the browser's ceremony), rename, delete. */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['passkey-status'], queryFn: () => client.passkeys.status() });
  const list = useQuery({ queryKey: ['passkeys'], queryFn: () => client.passkeys.list(), enabled: !!status.data?.enabled });
  const [renaming, setRenaming] = useState<string>();
  const [name, setName] = useState('');
  const { busy, error, run } = useAction();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['passkeys'] });
  if (status.data && !status.data.enabled) return null;
  return (
    <section className="panel stack" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <ErrorMessage error={status.error ?? list.error} />
      {list.data && list.data.length === 0 && <p className="muted">No passkeys yet.</p>}
      {list.data && list.data.length > 0 && (
        <ul className="stack">
          {list.data.map((p) => (
            <li key={p.id}>
              {renaming === p.id ? (
                <form
                  className="row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void run(async () => {
                      await client.passkeys.rename(p.id, name.trim());
                      setRenaming(undefined);
                      await refresh();
                    });
                  }}
                >
                  <label>
                    New name for {p.name}
                    <input type="text" required value={name} onChange={(e) => setName(e.target.value)} />
                  </label>
                  <button type="submit" className="primary" disabled={busy} style={{ alignSelf: 'end' }}>
                    Save name
                  </button>
                  <button type="button" onClick={() => setRenaming(undefined)} style={{ alignSelf: 'end' }}>
                    Cancel
                  </button>
                </form>
              ) : (
                <div className="row">
                  <strong>{p.name}</strong>
                  <span className="muted">
                    added {when(p.createdAt)}, last used {when(p.lastUsedAt)}
                  </span>
                  <button
                    type="button"
                    aria-label={`Rename ${p.name}`}
                    onClick={() => {
                      setName(p.name);
                      setRenaming(p.id);
                    }}
                  >
                    Rename
                  </button>
                  <ConfirmDialog
                    title={`Delete the passkey “${p.name}”?`}
                    confirmLabel="Delete passkey"
                    trigger={
                      <button type="button" aria-label={`Delete ${p.name}`}>
                        Delete
                      </button>
                    }
                    onConfirm={async () => {
                      await client.passkeys.delete(p.id);
                      await refresh();
                    }}
                  >
                    <p>You will no longer be able to sign in with it.</p>
                  </ConfirmDialog>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={error} />
      <AddPasskeyButton onAdded={() => void refresh()} />
    </section>
  );
}
