import type { WebhookDelivery } from '@vellum/client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client } from '../../api/client';
import { ErrorMessage } from '../../ui/error-message';
import { useAction } from '../../ui/use-action';
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
  const queryClient = useQueryClient();
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<WebhookDelivery>();
  const send = () =>
    void run(async () => {
      setResult(undefined);
      setResult(await client.webhooks.test(id));
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', id] });
    });
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
