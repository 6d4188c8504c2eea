import { useState } from 'react';
import { AddPasskeyButton } from '../../auth/add-passkey-button';
import { useDeletePasskey, usePasskeys, usePasskeyStatus, useRenamePasskey } from '../../queries/account';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';

/** Passkeys (docs/api.md, "Passkeys"): add one (the browser's ceremony), rename, delete. */
export function PasskeysSection() {
  const status = usePasskeyStatus();
  const list = usePasskeys(!!status.data?.enabled);
  const [renaming, setRenaming] = useState<string>();
  const [name, setName] = useState('');
  const rename = useRenamePasskey();
  const remove = useDeletePasskey();
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
                    rename.mutate({ id: p.id, name: name.trim() }, { onSuccess: () => setRenaming(undefined) });
                  }}
                >
                  <label>
                    New name for {p.name}
                    <input type="text" required value={name} onChange={(e) => setName(e.target.value)} />
                  </label>
                  <button type="submit" className="primary" disabled={rename.isPending} style={{ alignSelf: 'end' }}>
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
                    onConfirm={() => remove.mutateAsync(p.id)}
                  >
                    <p>You will no longer be able to sign in with it.</p>
                  </ConfirmDialog>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={rename.error} />
      <AddPasskeyButton />
    </section>
  );
}
