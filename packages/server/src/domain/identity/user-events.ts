import type { StoredUser } from '../../storage/identity/users-store.js';
import type { ChangeEvent } from '../events/change-event.js';
import { changeEvent } from '../events/record-changes.js';
import type { WebhookEvent } from '../webhooks/webhook-events.js';
import { toUserView } from './user-view.js';

/** `user.created|updated|deleted` with the user as `/users/:id` serves it (never a hash). */
export function userEvent(type: Extract<WebhookEvent, `user.${string}`>, user: StoredUser, at: string): ChangeEvent {
  return changeEvent(type, { kind: 'user', id: user.id }, { ...toUserView(user) }, at);
}
