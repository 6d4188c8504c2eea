import { errors } from '../../errors.js';
import {
  DELIVERY_STATUSES,
  findDelivery,
  listDeliveries,
  requeueDelivery,
  type DeliveryStatus,
} from '../../storage/webhooks/webhook-deliveries-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { requireWebhook } from './manage-webhooks.js';
import { toDeliveryView, type WebhookDeliveryView } from './webhook-input.js';

/** `GET /webhooks/:id/deliveries`: newest first, optionally one status. */
export async function listWebhookDeliveries(
  svc: Services,
  actor: Principal,
  id: string,
  query: { status?: string; limit?: unknown; offset?: unknown },
) {
  // 1. Permission, paging and the status filter.
  requirePermission(actor, 'webhooks:read');
  const { limit, offset } = parsePaging(query.limit, query.offset);
  const status = query.status === undefined || query.status === '' ? undefined : query.status;
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
    throw errors.invalidInput(`status must be one of ${DELIVERY_STATUSES.join(', ')}`, [
      { field: 'status', message: `must be one of ${DELIVERY_STATUSES.join(', ')}` },
    ]);
  }
  // 2. The hook must exist (an empty list would hide a wrong id).
  await requireWebhook(svc, id);
  // 3. One page and the total.
  const { rows, total } = await listDeliveries(svc.database, id, { status: status as DeliveryStatus | undefined, limit, offset });
  return { data: rows.map(toDeliveryView), meta: { total, limit, offset } };
}

/** `POST /webhooks/:id/deliveries/:deliveryId/retry`: a failed or dead delivery is due again now. */
export async function retryWebhookDelivery(svc: Services, actor: Principal, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
  // 1. Permission; the delivery must belong to the hook.
  requirePermission(actor, 'webhooks:write');
  const found = await findDelivery(svc.database, id, deliveryId);
  if (!found) throw errors.notFound('Delivery not found');
  // 2. Only failed or dead ones: pending, in flight or delivered ones are refused (the update is
  //    conditional, so a race with the worker is refused too).
  const ok = await requeueDelivery(svc.database, id, deliveryId, svc.now().toISOString());
  if (!ok) throw errors.conflict(`Only failed or dead deliveries can be retried; this one is ${found.status}`);
  svc.deliveryQueue.wake();
  // 3. Answer it as it is now.
  const after = await findDelivery(svc.database, id, deliveryId);
  if (!after) throw errors.notFound('Delivery not found');
  return toDeliveryView(after);
}
