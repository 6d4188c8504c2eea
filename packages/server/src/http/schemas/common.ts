import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** The error body of every failure (spec: Errors). */
export const ErrorBody = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    retryAfter: Type.Optional(Type.Number()),
  }),
});

export const Success = Type.Object({ success: Type.Literal(true) });

export const Meta = Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });

/** The served user. As a response schema it is also the allowlist: a hash can never be serialised. */
export const User = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  name: Type.String(),
  role: Type.String(),
  permissions: Type.Array(Type.String()),
  active: Type.Boolean(),
  mfaEnabled: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  lastLogin: Nullable(Type.String()),
});

/**
 * The answer to `POST /users/invite`: the user, and the invitation link only when the server has no
 * mail to send it (docs/api.md, "Password reset and invitations"). Only this route's caller, who may
 * invite, ever gets the link.
 */
export const InvitedUser = Type.Composite([User, Type.Object({ inviteUrl: Type.Optional(Type.String()) })]);

export const ApiToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  expiresAt: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
});

export const data = <T extends TSchema>(t: T) => Type.Object({ data: t });

/** Common error responses, so documentation and serialisation agree. */
export const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
