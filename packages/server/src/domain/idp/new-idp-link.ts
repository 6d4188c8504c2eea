import type { StoredIdpLink } from '../../storage/identity/idp-store.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { PROVIDER } from './idp-settings.js';
import type { ProviderAccount } from './provider-client.js';

/** The link row between a provider account (issuer + subject) and a user, as both link paths store it. */
export function newIdpLink(svc: Services, account: ProviderAccount, userId: string): StoredIdpLink {
  return {
    id: uuidv7(),
    provider: PROVIDER,
    issuer: account.issuer,
    subject: account.subject,
    userId,
    email: account.email ?? null,
    createdAt: svc.now().toISOString(),
  };
}
