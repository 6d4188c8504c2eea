import type { WebhookDeliveryStatus } from '@vellum/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client } from '../../api/client';
import { ErrorMessage } from '../../ui/error-message';
import { ListTable } from '../../ui/list-table';
import { OffsetPager } from '../../ui/offset-pager';
import { useAction } from '../../ui/use-action';
import { when } from '../../ui/when';
import { DELIVERY_STATUSES, DeliveryBadge, extraError, statusWord } from './webhook-badges';

const PAGE = 20;
/** While a delivery is on its way the log asks again now and then, so its outcome shows up by itself. */
const IN_FLIGHT_REFRESH_MS = 3000;

/**
 * A webhook's deliveries, newest first, filtered by status, with "Retry" on failed and dead
 * ones (`webhooks:write`: back in the queue, due now).
 */
export function WebhookDeliveries({ id, mayRetry }: { id: string; mayRetry: boolean }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const retry = useAction();
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', id, status, offset],
    queryFn: () => client.webhooks.deliveries(id, { status: status || undefined, limit: PAGE, offset }),
    placeholderData: (previous) => previous,
    refetchInterval: (q) =>
      q.state.data?.data.some((d) => d.status === 'pending' || d.status === 'delivering') ? IN_FLIGHT_REFRESH_MS : false,
  });
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
                    disabled={retry.busy}
                    aria-label={`Retry ${d.eventType} delivery of ${when(d.createdAt)}`}
                    onClick={() =>
                      void retry.run(async () => {
                        await client.webhooks.retryDelivery(id, d.id);
                        await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', id] });
                      })
                    }
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
