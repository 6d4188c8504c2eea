import { Type } from '@sinclair/typebox';
import { data, errorResponses, Nullable, Success, User } from '../../schemas/common.js';

// Request bodies follow WebAuthn Level 3's JSON forms (RegistrationResponseJSON,
// AuthenticationResponseJSON); browsers may add members, which the verifier ignores.
const B64 = Type.String({ minLength: 1, maxLength: 16_384 });
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 });
const ClientExtensionResults = Type.Object({}, { additionalProperties: true });

export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const RegistrationVerifyBody = Type.Object(
  {
    response: Type.Object({
      id: B64,
      rawId: B64,
      type: Type.Literal('public-key'),
      response: Type.Object({ clientDataJSON: B64, attestationObject: B64, transports: Type.Optional(Transports) }),
      clientExtensionResults: ClientExtensionResults,
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const LoginVerifyBody = Type.Object(
  {
    response: Type.Object({
      id: B64,
      rawId: B64,
      type: Type.Literal('public-key'),
      response: Type.Object({
        clientDataJSON: B64,
        authenticatorData: B64,
        signature: B64,
        userHandle: Type.Optional(Type.String({ maxLength: 1024 })),
      }),
      clientExtensionResults: ClientExtensionResults,
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    }),
    deviceId: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const RenameBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const CredentialParams = Type.Object({ credentialId: Type.String({ minLength: 1, maxLength: 1024 }) });

/** A credential as served; as a response schema it is the allowlist that keeps the public key in. */
const Credential = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
  deviceType: Type.String(),
  backedUp: Type.Boolean(),
  transports: Type.Array(Type.String()),
});

const Descriptor = Type.Object({ id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) });
const Extensions = Type.Object({ credProps: Type.Optional(Type.Boolean()) });

/** PublicKeyCredentialCreationOptionsJSON (WebAuthn Level 3 §5.8.1). */
export const CreationOptions = data(
  Type.Object({
    challenge: Type.String(),
    rp: Type.Object({ id: Type.String(), name: Type.String() }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Array(Descriptor),
    authenticatorSelection: Type.Object({
      authenticatorAttachment: Type.Optional(Type.String()),
      residentKey: Type.String(),
      requireResidentKey: Type.Optional(Type.Boolean()),
      userVerification: Type.Optional(Type.String()),
    }),
    hints: Type.Optional(Type.Array(Type.String())),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Extensions),
  }),
);

/** PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3 §5.5). */
export const RequestOptions = data(
  Type.Object({
    challenge: Type.String(),
    timeout: Type.Optional(Type.Integer()),
    rpId: Type.String(),
    allowCredentials: Type.Array(Descriptor),
    userVerification: Type.Optional(Type.String()),
    hints: Type.Optional(Type.Array(Type.String())),
    extensions: Type.Optional(Extensions),
  }),
);

export const Status = data(Type.Object({ enabled: Type.Boolean(), rpId: Nullable(Type.String()), rpName: Nullable(Type.String()) }));
export const CredentialData = data(Credential);
export const CredentialList = data(Type.Array(Credential));
export const LoginSuccess = data(Type.Object({ token: Type.String(), refreshToken: Type.String(), expiresAt: Type.String(), user: User }));
export const SuccessData = data(Success);
export { errorResponses };
