import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../ui/error-message';

/** What each scope lets a client do (docs/oauth2.md, "Scopes"); an unknown scope is shown as it is. */
const SCOPE_TEXT: Record<string, string> = {
  'content:read': 'read content',
  'content:write': 'create and edit content',
  'content:delete': 'delete content',
  'content:publish': 'publish content',
  'media:read': 'see the media library',
  'media:upload': 'upload media',
  'media:edit': 'edit media details',
  'media:delete': 'delete media',
  offline_access: 'stay signed in (refresh tokens)',
};

/**
 * The consent form shared by the device and authorization-code pages: the client, its scopes
 * (each can be unticked to grant less), approve or deny.
 */
export function Consent({
  clientName,
  scopes,
  detail,
  onDecide,
}: {
  clientName: string;
  scopes: string[];
  detail?: string;
  onDecide: (action: 'approve' | 'deny', scopes: string[]) => Promise<void>;
}) {
  const [chosen, setChosen] = useState<string[]>(scopes);
  const decision = useMutation({ mutationFn: (action: 'approve' | 'deny') => onDecide(action, chosen) });
  const { isPending: busy, error } = decision;
  const decide = (action: 'approve' | 'deny') => decision.mutate(action);
  return (
    <div className="stack">
      <p>
        <strong>{clientName}</strong> asks for access to your account{detail ? ` ${detail}` : ''}.
      </p>
      {scopes.length > 0 && (
        <fieldset className="scopes">
          <legend>It may</legend>
          {scopes.map((s) => (
            <label key={s} className="inline">
              <input
                type="checkbox"
                value={s}
                checked={chosen.includes(s)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))}
              />
              {SCOPE_TEXT[s] ?? s} <code className="muted">{s}</code>
            </label>
          ))}
        </fieldset>
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => void decide('approve')}
          disabled={busy || (scopes.length > 0 && chosen.length === 0)}
        >
          Approve
        </button>
        <button type="button" onClick={() => void decide('deny')} disabled={busy}>
          Deny
        </button>
      </div>
      <ErrorMessage error={error} />
    </div>
  );
}
