import type { WebhookDelivery } from '@vellum/client';
import { useTestWebhook } from '../../queries/webhooks';
import { ErrorMessage } from '../../ui/error-message';
import { extraError } from './webhook-badges';

/** What one attempt came to: the status code and time, or the error. */
function outcome(d: WebhookDelivery): string {
  const code = d.lastStatusCode === null ? '' : `HTTP ${d.lastStatusCode}`;
  const time = d.lastDurationMs === null ? '' : `${d.lastDurationMs} ms`;
  if (d.status === 'succeeded') return `Delivered: ${[code, time].filter(Boolean).join(' in ')}.`;
  const why = [code, extraError(d)].filter(Boolean).join(', ') || 'no answer';
  return `Not delivered: ${why}${time ? ` (after ${time})` : ''}.`;
}

/**
 * "Send test event" (`webhooks:test`): the server sends a `webhook.test` event at once, even to a
 * switched-off hook, and answers the recorded delivery, which then heads the log below.
 */
export function WebhookTest({ id }: { id: string }) {
  const test = useTestWebhook(id);
  const { isPending: busy, error, data: result } = test;
  const send = () => test.mutate();
  return (
    <div className="stack">
      <div className="row">
        <button type="button" onClick={send} disabled={busy}>
          {busy ? 'Sending test event…' : 'Send test event'}
        </button>
      </div>
      <p role="status" className={result?.status === 'succeeded' ? undefined : 'error'}>
        {result && outcome(result)}
      </p>
      <ErrorMessage error={error} />
    </div>
  );
}
