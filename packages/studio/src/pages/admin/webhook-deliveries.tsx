import type { Webhook, WebhookDeliveryStatus } from '@vellum/client';
import { useEffect, useRef, useState } from 'react';
import { useRefreshDeliveries, useRetryDelivery, useWebhookDeliveries } from '../../queries/webhooks';
import { onDocumentChange } from '../../live/document-changes';
import { ErrorMessage } from '../../ui/error-message';
import { ListTable } from '../../ui/list-table';
import { OffsetPager } from '../../ui/offset-pager';
import { when } from '../../ui/when';
import { DELIVERY_STATUSES, DeliveryBadge, extraError, statusWord } from './webhook-badges';
import { hookTakes } from './webhook-events';

const PAGE = 20;
/** While a delivery is on its way the log asks again now and then, so its outcome shows up by itself. */
const IN_FLIGHT_REFRESH_MS = 3000;
/**
 * Otherwise it asks at this pace while the page is visible: deliveries also come from events the
 * studio's stream does not bring here (media and users, documents this user may not read, another
 * node's worker), and the stream carries no delivery events (docs/studio.md, "Live updates").
 */
const IDLE_REFRESH_MS = 10_000;

/**
 * A webhook's deliveries, newest first, filtered by status, with "Retry" on failed and dead
 * ones (`webhooks:write`: back in the queue, due now). The log follows new deliveries by itself.
 */
export function WebhookDeliveries({ hook, mayRetry }: { hook: Webhook; mayRetry: boolean }) {
  const id = hook.id;
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const retry = useRetryDelivery(id);
  const refresh = useRefreshDeliveries(id);
  const deliveries = useWebhookDeliveries(id, { status: status || undefined, limit: PAGE, offset }, (q) =>
    q.state.data?.data.some((d) => d.status === 'pending' || d.status === 'delivering') ? IN_FLIGHT_REFRESH_MS : IDLE_REFRESH_MS,
  );

  // A document event this hook takes was queued for it in the same transaction (docs/webhooks.md,
  // "The outbox"): the log asks at once, joining a request already under way rather than
  // cancelling it, so a burst of events makes few requests.
  const takes = useRef(hook);
  takes.current = hook;
  useEffect(
    () =>
      onDocumentChange((event) => {
        if (event.subject.kind !== 'document' || !hookTakes(takes.current, event.type, event.subject.docType)) return;
        refresh();
      }),
    [id],
  );
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div className="toolbar">
        <label>
          Filter by status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as WebhookDeliveryStatus | '');
              setOffset(0);
            }}
          >
            <option value="">All statuses</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={retry.error} />
      <ListTable
        label="Deliveries"
        columns={['Event', 'Status', 'Attempts', 'Last status code', 'Duration', 'Next retry', 'Created']}
        actions={mayRetry}
        list={deliveries}
        empty={status ? `No ${statusWord(status).toLowerCase()} deliveries.` : 'No deliveries yet.'}
      >
        {(d) => (
          <tr key={d.id}>
            <td>
              <code className="event-name">{d.eventType}</code>
            </td>
            <td>
              <DeliveryBadge status={d.status} />
              {extraError(d) && <div className="muted">{extraError(d)}</div>}
            </td>
            <td>{d.attempts}</td>
            <td>{d.lastStatusCode ?? '—'}</td>
            <td>{d.lastDurationMs === null ? '—' : `${d.lastDurationMs} ms`}</td>
            <td>{when(d.nextAttemptAt)}</td>
            <td>{when(d.createdAt)}</td>
            {mayRetry && (
              <td>
                {(d.status === 'failed' || d.status === 'dead') && (
                  <button
                    type="button"
                    disabled={retry.isPending}
                    aria-label={`Retry ${d.eventType} delivery of ${when(d.createdAt)}`}
                    onClick={() => retry.mutate(d.id)}
                  >
                    Retry
                  </button>
                )}
              </td>
            )}
          </tr>
        )}
      </ListTable>
      <OffsetPager
        label="Pages of deliveries"
        offset={offset}
        pageSize={PAGE}
        total={deliveries.data?.meta.total ?? 0}
        onChange={setOffset}
      />
    </section>
  );
}
