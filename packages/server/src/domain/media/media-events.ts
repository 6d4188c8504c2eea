import type { VellumConfig } from '../../config/types.js';
import type { StoredMedia } from '../../storage/media/media-store.js';
import type { ChangeEvent } from '../events/change-event.js';
import { changeEvent } from '../events/record-changes.js';
import type { WebhookEvent } from '../webhooks/webhook-events.js';
import { toApiMedia } from './media-view.js';

/** `media.created|updated|deleted` with the item as `/media/:id` serves it. */
export function mediaEvent(config: VellumConfig, type: Extract<WebhookEvent, `media.${string}`>, m: StoredMedia, at: string): ChangeEvent {
  return changeEvent(type, { kind: 'media', id: m.id }, { ...toApiMedia(config, m) }, at);
}
