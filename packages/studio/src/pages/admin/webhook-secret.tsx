import { CopyOnce } from '../../ui/copy-once';

/**
 * A webhook's signing secret, shown once after create and after each rotation (only a sealed
 * copy is kept), with how receivers check it: the Standard Webhooks headers (docs/webhooks.md,
 * "Signatures").
 */
export function WebhookSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <section className="panel stack" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">{title}</h2>
      <p>Copy the signing secret now: it is shown only this once.</p>
      <CopyOnce label="Signing secret" value={secret} />
      <p className="muted">
        Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers. Your
        receiver verifies the signature over the raw body with this secret, as{' '}
        <a href="https://www.standardwebhooks.com" target="_blank" rel="noreferrer">
          Standard Webhooks
        </a>{' '}
        describes (its libraries do it in one call), and refuses old timestamps.
      </p>
      <div className="row">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
