import type { PasskeyCredential } from '@vellum/client';
import type { StoredPasskey } from '../../storage/identity/passkeys-store.js';

/** A credential as its owner sees it, never the public key or the counter; declared once, by the client (docs/architecture.md, "Packages"). */
export type PasskeyView = PasskeyCredential;

export function toPasskeyView(p: StoredPasskey): PasskeyView {
  return {
    id: p.id,
    name: p.name,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
    deviceType: p.deviceType,
    backedUp: p.backedUp,
    transports: p.transports,
  };
}
