import { Ajv } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Bodies are validated strictly: no type coercion ("5" is not a number) and unknown properties
 * are errors, never silently removed. Query strings and params are text, so they are coerced.
 */
const strict = new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: false });
const coercing = new Ajv({ allErrors: true, coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema as object);
  return (input: unknown) => {
    // A request without a body is validated as `{}`: optional-only bodies (logout, refresh) may be left out.
    const data = httpPart === 'body' && (input === null || input === undefined) ? {} : input;
    return validate(data) ? { value: data } : { error: Object.assign(new Error('validation failed'), { validation: validate.errors }) };
  };
};
