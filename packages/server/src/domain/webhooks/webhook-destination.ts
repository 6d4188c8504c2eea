import { errors } from '../../errors.js';
import { checkDestination } from '../../net/guarded-request.js';
import type { Services } from '../services.js';

/**
 * A webhook URL is checked when it is saved with the rules its deliveries meet (docs/webhooks.md,
 * "Network safety"): unless `webhooks.allowPrivateNetworks` is on, the host is resolved and an
 * address that is not public is 422 on `url`, so the admin learns it now rather than from failed
 * deliveries. A host that does not resolve (yet), or not within `webhooks.timeout`, is accepted:
 * its record may come later, and every delivery checks again, since DNS can change.
 */
export async function checkWebhookDestination(svc: Services, url: string): Promise<void> {
  if (svc.config.webhooks.allowPrivateNetworks) return;
  const checked = await checkDestination(url, { allowPrivateNetworks: false, timeoutMs: svc.config.webhooks.timeoutMs });
  if (checked.ok || checked.kind !== 'refused-address') return;
  throw errors.validation(
    [
      {
        field: 'url',
        message: `reaches ${checked.address} (${checked.addressClass}); webhooks reach only public addresses unless webhooks.allowPrivateNetworks is on`,
      },
    ],
    'The webhook URL points at an address that is not public',
  );
}
