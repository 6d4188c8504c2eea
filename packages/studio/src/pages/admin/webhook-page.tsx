import type { Webhook, WebhookInput } from '@vellum/client';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDeleteWebhook, useRotateWebhookSecret, useUpdateWebhook, useWebhook } from '../../queries/webhooks';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { FormDialog } from '../../ui/form-dialog';
import { hasPermission, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { usePageTitle } from '../../ui/page-title';
import { when } from '../../ui/when';
import './admin.css';
import { WebhookState } from './webhook-badges';
import { WebhookDeliveries } from './webhook-deliveries';
import { eventsSummary } from './webhook-events';
import { WebhookForm } from './webhook-form';
import { WebhookSecret } from './webhook-secret';
import { WebhookTest } from './webhook-test';

/** The body `PUT /webhooks/:id` replaces the hook with: what it has, with the changes given. */
const inputOf = (w: Webhook, change: Partial<WebhookInput> = {}): WebhookInput => ({
  name: w.name,
  url: w.url,
  events: w.events,
  types: w.types,
  active: w.active,
  ...change,
});

/**
 * One webhook (docs/api.md, "Webhooks"): its settings, edit and switch on or off
 * (`webhooks:write`), rotate the secret (shown once), delete (`webhooks:delete`), a test event
 * (`webhooks:test`) and the deliveries log.
 */
export default function WebhookPage() {
  const { id = '' } = useParams();
  const { session, ok } = useAllowed(hasPermission('webhooks:read'));
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string>();
  const hook = useWebhook(id, ok);
  const update = useUpdateWebhook(id);
  // The switch's own state: an edit's error belongs to the form, not under the switch.
  const toggle = useUpdateWebhook(id);
  const rotate = useRotateWebhookSecret(id);
  const remove = useDeleteWebhook(id);
  usePageTitle(hook.data ? `Webhook ${hook.data.name}` : 'Webhook');
  if (!ok) return <NotAllowed title="Webhook" needs="the webhooks:read permission" />;
  const w = hook.data;
  if (!w)
    return (
      <>
        <p>
          <Link to="/admin/webhooks">All webhooks</Link>
        </p>
        <h1>Webhook</h1>
        <ErrorMessage error={hook.error} />
        {hook.isPending && <p className="muted">Loading…</p>}
      </>
    );
  const mayWrite = hasPermission('webhooks:write')(session);
  const mayDelete = hasPermission('webhooks:delete')(session);
  const mayTest = hasPermission('webhooks:test')(session);
  const save = async (input: WebhookInput) => {
    await update.mutateAsync(input);
    setEditing(false);
  };
  return (
    <>
      <p>
        <Link to="/admin/webhooks">All webhooks</Link>
      </p>
      <h1>Webhook “{w.name}”</h1>
      {secret && <WebhookSecret title="New signing secret" secret={secret} onDone={() => setSecret(undefined)} />}
      <section className="panel stack" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <dl className="webhook-settings">
          <dt>URL</dt>
          <dd>
            <code>{w.url}</code>
          </dd>
          <dt>Events</dt>
          <dd>{eventsSummary(w.events)}</dd>
          <dt>Document types</dt>
          <dd>{w.types.length > 0 ? w.types.join(', ') : 'All'}</dd>
          <dt>State</dt>
          <dd>
            <WebhookState webhook={w} />
          </dd>
          <dt>Failures in a row</dt>
          <dd>{w.consecutiveFailures}</dd>
          <dt>Created</dt>
          <dd>{when(w.createdAt)}</dd>
          <dt>Changed</dt>
          <dd>{when(w.updatedAt)}</dd>
        </dl>
        <ErrorMessage error={toggle.error} />
        <div className="row">
          {mayWrite && (
            <FormDialog
              title={`Edit webhook “${w.name}”`}
              open={editing}
              onOpenChange={setEditing}
              trigger={<button type="button">Edit</button>}
            >
              <WebhookForm webhook={w} onSubmit={save} onCancel={() => setEditing(false)} />
            </FormDialog>
          )}
          {mayWrite && (
            <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(inputOf(w, { active: !w.active }))}>
              {w.active ? 'Switch off' : 'Switch on'}
            </button>
          )}
          {mayWrite && (
            <ConfirmDialog
              title="Rotate the signing secret?"
              trigger={<button type="button">Rotate secret</button>}
              confirmLabel="Rotate secret"
              onConfirm={async () => {
                const rotated = await rotate.mutateAsync();
                setSecret(rotated.secret);
              }}
            >
              <p>The current secret stops signing at once: deliveries fail verification until the receiver has the new one.</p>
            </ConfirmDialog>
          )}
          {mayDelete && (
            <ConfirmDialog
              title={`Delete webhook “${w.name}”?`}
              trigger={
                <button type="button" className="danger">
                  Delete
                </button>
              }
              confirmLabel="Delete webhook"
              onConfirm={async () => {
                await remove.mutateAsync();
                void navigate('/admin/webhooks');
              }}
            >
              <p>No more events are sent to it, and its deliveries log goes with it. This cannot be undone.</p>
            </ConfirmDialog>
          )}
        </div>
      </section>
      {mayTest && (
        <section className="panel stack" aria-labelledby="test-title">
          <h2 id="test-title">Test</h2>
          <p className="muted">
            Sends a signed <code>webhook.test</code> event now, even while the webhook is switched off.
          </p>
          <WebhookTest id={id} />
        </section>
      )}
      <WebhookDeliveries hook={w} mayRetry={mayWrite} />
    </>
  );
}
