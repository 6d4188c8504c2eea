import { Type } from '@sinclair/typebox';
import { data, errorResponses } from '../../schemas/common.js';
import { LoginResult, SuccessData } from '../auth/schemas.js';

const Mode = Type.Union([Type.Literal('login'), Type.Literal('link')]);

export const InitBody = Type.Object({ mode: Type.Optional(Mode) }, { additionalProperties: false });
export const CallbackBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 4096 }),
    state: Type.String({ minLength: 1, maxLength: 512 }),
    mode: Type.Optional(Mode),
    rememberMe: Type.Optional(Type.Boolean()),
    deviceId: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const Status = data(
  Type.Object({
    enabled: Type.Boolean(),
    providers: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    linked: Type.Optional(Type.Boolean()),
  }),
);
export const InitResult = data(Type.Object({ authorizationUrl: Type.String(), state: Type.String() }));
/** The login outcomes of `POST /auth/login`, or the end of a link flow. */
export const CallbackResult = Type.Union([...LoginResult.anyOf, data(Type.Object({ linked: Type.Literal(true) }))]);
export { errorResponses, SuccessData };
