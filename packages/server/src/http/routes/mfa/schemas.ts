import { Type } from '@sinclair/typebox';
import { data, errorResponses, User } from '../../schemas/common.js';

/** Response schemas are allowlists: no secret, hash or code leaves except where listed here. */
const Method = Type.Union([Type.Literal('totp'), Type.Literal('email')]);
const Code = Type.String({ minLength: 1, maxLength: 32 });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const MfaTokenField = Type.String({ minLength: 1, maxLength: 256 });

export const VerifyBody = Type.Object(
  {
    mfaToken: MfaTokenField,
    code: Code,
    method: Method,
    trustDevice: Type.Optional(Type.Boolean()),
    deviceId: Type.Optional(Type.String({ maxLength: 256 })),
    deviceName: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export const VerifyBackupBody = Type.Object({ mfaToken: MfaTokenField, code: Code }, { additionalProperties: false });
export const EmailSendBody = Type.Object({ mfaToken: MfaTokenField }, { additionalProperties: false });
export const SetupVerifyBody = Type.Object({ code: Code }, { additionalProperties: false });
export const DisableBody = Type.Object({ method: Method, password: Password }, { additionalProperties: false });
export const PasswordBody = Type.Object({ password: Password }, { additionalProperties: false });
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });

const Tokens = { token: Type.String(), refreshToken: Type.String(), expiresAt: Type.String() };
export const SignedIn = data(Type.Object({ ...Tokens, user: User }));
export const TotpSetup = data(Type.Object({ secret: Type.String(), otpauthUrl: Type.String(), qrCode: Type.String() }));
export const SetupVerified = data(
  Type.Object({
    enabled: Type.Literal(true),
    backupCodes: Type.Optional(Type.Array(Type.String())),
    token: Type.Optional(Type.String()),
    refreshToken: Type.Optional(Type.String()),
    expiresAt: Type.Optional(Type.String()),
    user: Type.Optional(User),
  }),
);
export const Sent = data(Type.Object({ sent: Type.Literal(true) }));
export const BackupCodes = data(Type.Object({ backupCodes: Type.Array(Type.String()) }));
export const Status = data(
  Type.Object({ methods: Type.Array(Method), backupCodesRemaining: Type.Integer(), trustedDevices: Type.Integer() }),
);
export const TrustedDevices = data(
  Type.Array(
    Type.Object({
      id: Type.String(),
      deviceId: Type.String(),
      name: Type.String(),
      createdAt: Type.String(),
      lastUsedAt: Type.String(),
      expiresAt: Type.String(),
    }),
  ),
);
export const SuccessData = data(Type.Object({ success: Type.Literal(true) }));
export { errorResponses };
