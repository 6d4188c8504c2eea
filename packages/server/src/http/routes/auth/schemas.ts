import { Type } from '@sinclair/typebox';
import { data, errorResponses, Nullable, Success, User } from '../../schemas/common.js';

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 256 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    rememberMe: Type.Optional(Type.Boolean()),
    deviceId: Type.Optional(Type.String({ maxLength: 256 })),
    captchaToken: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

const Tokens = {
  token: Type.String(),
  refreshToken: Type.String(),
  expiresAt: Type.String(),
};

export const LoginSuccess = data(Type.Object({ ...Tokens, user: User }));
const MfaMethod = Type.Union([Type.Literal('totp'), Type.Literal('email')]);
/** The three login outcomes (docs/api.md, "Login"): tokens, a second factor to give, or a first method to set up. */
export const LoginResult = Type.Union([
  LoginSuccess,
  data(Type.Object({ requiresMFA: Type.Literal(true), mfaToken: Type.String(), methods: Type.Array(MfaMethod), expiresAt: Type.String() })),
  data(
    Type.Object({
      requiresMFASetup: Type.Literal(true),
      setupToken: Type.String(),
      methods: Type.Array(MfaMethod),
      expiresAt: Type.String(),
    }),
  ),
]);

export const RefreshBody = Type.Object({ refreshToken: Type.Optional(Type.String({ maxLength: 4096 })) }, { additionalProperties: false });
export const RefreshResponse = data(Type.Object(Tokens));

export const LogoutBody = Type.Object({ refreshToken: Type.Optional(Type.String({ maxLength: 4096 })) }, { additionalProperties: false });

export const ValidateBody = Type.Object({ token: Type.Optional(Type.String({ maxLength: 4096 })) }, { additionalProperties: false });
export const ValidateResponse = data(
  Type.Object({
    valid: Type.Literal(true),
    kind: Type.Union([Type.Literal('user'), Type.Literal('token'), Type.Literal('oauth')]),
    user: Type.Optional(Type.Object({ id: Type.String(), username: Type.String(), role: Type.String(), name: Type.String() })),
    token: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() })),
    oauth: Type.Optional(
      Type.Object({ client: Type.Object({ id: Type.String(), name: Type.String() }), scopes: Type.Array(Type.String()) }),
    ),
    sessionId: Type.Optional(Type.String()),
    role: Type.String(),
    permissions: Type.Array(Type.String()),
  }),
);

export const ClaimStatus = data(Type.Object({ claimable: Type.Boolean() }));
export const ClaimBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256 }),
    username: Type.String({ minLength: 1, maxLength: 64 }),
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    firstName: Type.Optional(Type.String({ maxLength: 100 })),
    lastName: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

/** The user's own preferences: any JSON object (docs/api.md, "Preferences"). */
export const Preferences = Type.Record(Type.String(), Type.Unknown());
/** `GET /auth/me`: a user's own session sees their preferences too. */
export const MeWithPreferences = data(Type.Composite([User, Type.Object({ preferences: Type.Optional(Preferences) })]));
export const PreferencesBody = Preferences;
export const PreferencesResponse = data(Preferences);
/** `PATCH /auth/me`: the fields given change; `currentPassword` confirms a new email. */
export const ProfileBody = Type.Object(
  {
    firstName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    lastName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    currentPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 1024 }), newPassword: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export const RequestResetBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), captchaToken: Type.Optional(Type.String({ maxLength: 4096 })) },
  { additionalProperties: false },
);
export const TokenBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
export const ResetPasswordBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export const ValidData = data(Type.Object({ valid: Type.Boolean() }));
export const ResetStatus = data(Type.Object({ mail: Type.Boolean() }));
export const SuccessData = data(Type.Object({ success: Type.Literal(true) }));
export { errorResponses, Success };
