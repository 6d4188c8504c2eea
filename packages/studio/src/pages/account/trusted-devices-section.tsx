import { useRevokeTrustedDevices, useTrustedDevices } from '../../queries/account';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';

/** Devices that skip the second factor (docs/api.md, "Multi-factor authentication"): revoke one or all. */
export function TrustedDevicesSection() {
  const devices = useTrustedDevices();
  const revoke = useRevokeTrustedDevices();
  return (
    <section className="panel stack" aria-labelledby="devices-title">
      <h2 id="devices-title">Trusted devices</h2>
      <ErrorMessage error={devices.error} />
      {devices.data && devices.data.length === 0 && <p className="muted">No trusted devices: every sign-in asks for your second factor.</p>}
      {devices.data && devices.data.length > 0 && (
        <>
          <ul className="stack">
            {devices.data.map((d) => (
              <li key={d.id} className="row">
                <strong>{d.name}</strong>
                <span className="muted">
                  last used {when(d.lastUsedAt)}, trusted until {when(d.expiresAt)}
                </span>
                <ConfirmDialog
                  title={`Stop trusting “${d.name}”?`}
                  confirmLabel="Revoke"
                  trigger={
                    <button type="button" aria-label={`Revoke ${d.name}`}>
                      Revoke
                    </button>
                  }
                  onConfirm={() => revoke.mutateAsync(d.id)}
                >
                  <p>Its next sign-in asks for the second factor again.</p>
                </ConfirmDialog>
              </li>
            ))}
          </ul>
          <ConfirmDialog
            title="Stop trusting every device?"
            confirmLabel="Revoke all"
            trigger={<button type="button">Revoke all devices</button>}
            onConfirm={() => revoke.mutateAsync(undefined)}
          >
            <p>Every device asks for the second factor at its next sign-in.</p>
          </ConfirmDialog>
        </>
      )}
    </section>
  );
}
