import type { WebhookInput } from '@vellum/client';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCreateWebhook, useWebhooks } from '../../queries/webhooks';
import { FormDialog } from '../../ui/form-dialog';
import { ListTable } from '../../ui/list-table';
import { hasPermission, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { OffsetPager } from '../../ui/offset-pager';
import { usePageTitle } from '../../ui/page-title';
import './admin.css';
import { WebhookState } from './webhook-badges';
import { eventsSummary } from './webhook-events';
import { WebhookForm } from './webhook-form';
import { WebhookSecret } from './webhook-secret';

const PAGE = 25;

/**
 * Webhooks (docs/api.md, "Webhooks"): the list with each hook's state and failures in a row, and
 * a new one (`webhooks:write`) whose signing secret is shown once. The rest is on each hook's page.
 */
export default function WebhooksPage() {
  usePageTitle('Webhooks');
  const { session, ok } = useAllowed(hasPermission('webhooks:read'));
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const hooks = useWebhooks({ limit: PAGE, offset }, ok);
  const createWebhook = useCreateWebhook();
  if (!ok) return <NotAllowed title="Webhooks" needs="the webhooks:read permission" />;
  const mayWrite = hasPermission('webhooks:write')(session);
  const create = async (input: WebhookInput) => {
    const { secret, webhook } = await createWebhook.mutateAsync(input);
    setCreated({ name: webhook.name, secret });
    setCreating(false);
  };
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">Vellum sends a signed POST to each webhook's URL when a subscribed event happens.</p>
      {mayWrite && (
        <div className="toolbar">
          <FormDialog
            title="New webhook"
            open={creating}
            onOpenChange={setCreating}
            trigger={
              <button type="button" className="primary">
                New webhook
              </button>
            }
          >
            <WebhookForm onSubmit={create} onCancel={() => setCreating(false)} />
          </FormDialog>
        </div>
      )}
      {created && (
        <WebhookSecret title={`Webhook “${created.name}” created`} secret={created.secret} onDone={() => setCreated(undefined)} />
      )}
      <ListTable label="Webhooks" columns={['Name', 'URL', 'Events', 'State', 'Failures in a row']} list={hooks} empty="No webhooks yet.">
        {(w) => (
          <tr key={w.id}>
            <td>
              <Link to={`/admin/webhooks/${encodeURIComponent(w.id)}`}>{w.name}</Link>
            </td>
            <td>
              <code>{w.url}</code>
            </td>
            <td>
              {eventsSummary(w.events)}
              {w.types.length > 0 && <div className="muted">Types: {w.types.join(', ')}</div>}
            </td>
            <td>
              <WebhookState webhook={w} />
            </td>
            <td>{w.consecutiveFailures}</td>
          </tr>
        )}
      </ListTable>
      <OffsetPager label="Pages of webhooks" offset={offset} pageSize={PAGE} total={hooks.data?.meta.total ?? 0} onChange={setOffset} />
    </>
  );
}
