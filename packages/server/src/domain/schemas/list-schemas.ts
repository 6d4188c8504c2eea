import type { Services } from '../services.js';

/** `GET /config/schemas`: the registered schemas as configured (hooks and secrets never live here). */
export function listSchemas(svc: Services) {
  return svc.schemas.list().map((s) => ({
    name: s.name,
    title: s.title,
    type: s.singleton ? 'singleton' : 'document',
    public: s.public,
    fields: s.fields,
  }));
}
