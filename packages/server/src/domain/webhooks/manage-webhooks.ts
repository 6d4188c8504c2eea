import type { WebhookInput } from '@vellum/client';
import { errors } from '../../errors.js';
import {
  deleteWebhook as deleteRow,
  findWebhook,
  insertWebhook,
  listWebhooks as listRows,
  replaceWebhookSecret,
  updateWebhook as updateRow,
  type StoredWebhook,
} from '../../storage/webhooks/webhooks-store.js';
import { requirePermission } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { checkWebhookInput, toWebhookView, type WebhookView } from './webhook-input.js';
import { newWebhookSecret } from './sign-payload.js';
import { checkWebhookDestination } from './webhook-destination.js';

/** `GET /webhooks`, newest first. */
export async function listWebhooks(svc: Services, actor: Principal, query: { limit?: unknown; offset?: unknown }) {
  // 1. Permission, then paging (docs/api.md, "List queries").
  requirePermission(actor, 'webhooks:read');
  const { limit, offset } = parsePaging(query.limit, query.offset);
  // 2. One page and the total.
  const { rows, total } = await listRows(svc.database, limit, offset);
  return { data: rows.map(toWebhookView), meta: { total, limit, offset } };
}

/** `GET /webhooks/:id`. */
export async function getWebhook(svc: Services, actor: Principal, id: string): Promise<WebhookView> {
  requirePermission(actor, 'webhooks:read');
  return toWebhookView(await requireWebhook(svc, id));
}

/** `POST /webhooks`: the secret is returned here once; it is stored sealed. */
export async function createWebhook(
  svc: Services,
  actor: Principal,
  input: WebhookInput,
): Promise<{ secret: string; webhook: WebhookView }> {
  // 1. Permission.
  requirePermission(actor, 'webhooks:write');
  // 2. Name, URL, events and types; then where the URL leads (422 on `url` for a non-public address).
  const checked = checkWebhookInput(input, svc.schemas.names);
  await checkWebhookDestination(svc, checked.url);
  // 3. A fresh secret, sealed with the key that seals TOTP secrets.
  const secret = newWebhookSecret();
  const at = svc.now().toISOString();
  const stored: StoredWebhook = {
    id: uuidv7(),
    ...checked,
    secretEnc: svc.secretBox.seal(secret),
    consecutiveFailures: 0,
    disabledAt: null,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
    createdBy: actorId(actor),
  };
  // 4. Store; the plaintext leaves only in this answer.
  await insertWebhook(svc.database, stored);
  svc.activeWebhooks.invalidate();
  svc.events.notifyWebhooksChanged();
  return { secret, webhook: toWebhookView(stored) };
}

/** `PUT /webhooks/:id`: replaces the settings; switching a hook on forgets its failures. */
export async function updateWebhook(svc: Services, actor: Principal, id: string, input: WebhookInput): Promise<WebhookView> {
  // 1. Permission, then the body (before the lookup, as other replaces do).
  requirePermission(actor, 'webhooks:write');
  const checked = checkWebhookInput(input, svc.schemas.names);
  // 2. The current hook: 404 when gone; omitted `active` keeps what it was.
  const current = await requireWebhook(svc, id);
  const active = input.active ?? current.active;
  // Where the URL leads, as on create; a hook kept switched off at its old URL may still be edited.
  if (active || checked.url !== current.url) await checkWebhookDestination(svc, checked.url);
  // 3. Re-activating (on again, or still on but switched off by the worker) starts its count afresh.
  const reactivated = active && (!current.active || current.disabledAt !== null);
  const updatedAt = svc.now().toISOString();
  const ok = await updateRow(svc.database, id, { ...checked, active, reactivated, updatedAt });
  svc.activeWebhooks.invalidate();
  svc.events.notifyWebhooksChanged();
  if (!ok) throw errors.notFound('Webhook not found');
  // Its deliveries that waited while it was off are due: claim them now, not at the next poll.
  if (reactivated) svc.deliveryQueue.wake();
  // 4. Answer the row as stored now.
  return toWebhookView(await requireWebhook(svc, id));
}

/** `DELETE /webhooks/:id`: its deliveries go with it. */
export async function deleteWebhook(svc: Services, actor: Principal, id: string): Promise<void> {
  requirePermission(actor, 'webhooks:delete');
  if (!(await deleteRow(svc.database, id))) throw errors.notFound('Webhook not found');
  svc.activeWebhooks.invalidate();
  svc.events.notifyWebhooksChanged();
}

/** `POST /webhooks/:id/rotate-secret`: the old secret stops signing at once; the new one is shown once. */
export async function rotateWebhookSecret(svc: Services, actor: Principal, id: string): Promise<{ secret: string; webhook: WebhookView }> {
  // 1. Permission.
  requirePermission(actor, 'webhooks:write');
  // 2. Seal and store a new secret; 404 when the hook is gone.
  const secret = newWebhookSecret();
  const ok = await replaceWebhookSecret(svc.database, id, svc.secretBox.seal(secret), svc.now().toISOString());
  if (!ok) throw errors.notFound('Webhook not found');
  return { secret, webhook: toWebhookView(await requireWebhook(svc, id)) };
}

export async function requireWebhook(svc: Services, id: string): Promise<StoredWebhook> {
  const found = await findWebhook(svc.database, id);
  if (!found) throw errors.notFound('Webhook not found');
  return found;
}
