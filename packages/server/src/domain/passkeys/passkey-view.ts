import type { StoredPasskey } from '../../storage/passkeys-store.js';

/** A credential as its owner sees it: never the public key or the sign counter. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: string;
  backedUp: boolean;
  transports: string[];
}

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
