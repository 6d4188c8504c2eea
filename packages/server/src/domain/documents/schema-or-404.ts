import { errors } from '../../errors.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import type { Services } from '../services.js';

export function schemaOr404(svc: Services, type: string): CompiledSchema {
  const schema = svc.schemas.get(type);
  if (!schema) throw errors.notFound(`Unknown document type ${type}`);
  return schema;
}
