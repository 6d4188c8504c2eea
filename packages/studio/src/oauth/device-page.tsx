import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../auth/auth-layout';
import { useDecideDevice, useDeviceRequest } from '../queries/auth';
import { ErrorMessage } from '../ui/error-message';
import { Consent } from './consent';

/**
 * `/studio/auth/device` (RFC 8628 §3.3, docs/oauth2.md "The approval page"): the code a device
 * shows (typed, or from `?code=` of `verification_uri_complete`), then the client and its scopes,
 * approved (possibly narrowed) or denied.
 */
export default function DevicePage() {
  const [params, setParams] = useSearchParams();
  const code = params.get('code')?.trim().toUpperCase();
  const [done, setDone] = useState<'approve' | 'deny'>();
  const request = useDeviceRequest(code);
  const decide = useDecideDevice();
  const enter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setParams({ code: String(new FormData(e.currentTarget).get('code')).trim().toUpperCase() });
  };

  return (
    <AuthLayout title="Connect a device">
      {done === 'approve' && <p role="status">Approved. You can return to your device.</p>}
      {done === 'deny' && <p role="status">Denied. The device was not given access.</p>}
      {!done && (!code || request.isError) && (
        <form className="stack" onSubmit={enter} aria-label="Device code">
          <label>
            Code shown by the device
            <input name="code" type="text" autoComplete="off" placeholder="XXXX-XXXX" defaultValue={code} required autoFocus />
          </label>
          <button className="primary" type="submit">
            Continue
          </button>
        </form>
      )}
      <ErrorMessage error={request.error} />
      {!done && request.data && (
        <Consent
          clientName={request.data.client.name}
          scopes={request.data.scopes}
          detail={`(code ${request.data.userCode})`}
          onDecide={async (action, scopes) => {
            await decide.mutateAsync({ userCode: request.data!.userCode, action, scopes });
            setDone(action);
          }}
        />
      )}
    </AuthLayout>
  );
}
