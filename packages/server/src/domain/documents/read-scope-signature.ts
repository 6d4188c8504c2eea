import { canReadHistory, canReadMedia, readScope, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';

const CODE = { all: 'a', published: 'p', none: 'n' } as const;

/**
 * What the caller may read of every schema, as a short string (`apn…`, one letter per schema),
 * whether it may read media (`m`/`-`: expanded image and file fields depend on it) and revisions
 * (`h`/`-`: a preview token may not, docs/preview.md).
 * Two callers with the same signature get the same answer from every document read, whoever
 * they are, because expansion and visibility depend on these scopes alone.
 */
export function readScopeSignature(svc: Services, actor: Principal, mode: DocumentAccessMode): string {
  let sig = '';
  for (const schema of svc.schemas.list()) sig += CODE[readScope(actor, schema, mode, svc.config.documents.publicRead)];
  return sig + (canReadMedia(actor, svc.config.media.publicRead) ? 'm' : '-') + (canReadHistory(actor) ? 'h' : '-');
}

/** Whether callers with this signature may read every status of some type, and so its pending drafts. */
export const signatureReadsDrafts = (signature: string): boolean => signature.includes(CODE.all);
