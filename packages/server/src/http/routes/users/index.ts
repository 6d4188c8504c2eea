import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { createUser } from '../../../domain/users/create-user.js';
import { deleteUser } from '../../../domain/users/delete-user.js';
import { findUserBy, getUser, listUsers } from '../../../domain/users/list-users.js';
import { updateUser } from '../../../domain/users/update-user.js';
import { inviteUser } from '../../../domain/users/invite-user.js';
import { sendPasswordReset } from '../../../domain/users/send-password-reset.js';
import type { Services } from '../../../domain/services.js';
import { requireMayInvite, requirePermission } from '../../../domain/access/policy.js';
import { requireSignInForRoutes } from '../../plugins/authenticate.js';
import { data, errorResponses, InvitedUser, Meta, Nullable, Success, User } from '../../schemas/common.js';

const Name = Type.String({ maxLength: 100 });
const Fields = {
  username: Type.String({ minLength: 1, maxLength: 64 }),
  email: Type.String({ minLength: 3, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  role: Type.String({ maxLength: 32 }),
  permissions: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
  active: Type.Boolean(),
};
const CreateBody = Type.Object(
  {
    username: Fields.username,
    email: Fields.email,
    password: Type.Optional(Fields.password),
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    role: Type.Optional(Fields.role),
    permissions: Type.Optional(Fields.permissions),
    active: Type.Optional(Fields.active),
  },
  { additionalProperties: false },
);
const InviteBody = Type.Object(
  {
    username: Fields.username,
    email: Fields.email,
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    role: Type.Optional(Fields.role),
    permissions: Type.Optional(Fields.permissions),
  },
  { additionalProperties: false },
);
const UpdateBody = Type.Object(
  {
    username: Type.Optional(Fields.username),
    email: Type.Optional(Fields.email),
    password: Type.Optional(Fields.password),
    firstName: Type.Optional(Nullable(Name)),
    lastName: Type.Optional(Nullable(Name)),
    role: Type.Optional(Fields.role),
    permissions: Type.Optional(Fields.permissions),
    active: Type.Optional(Fields.active),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.String()),
    offset: Type.Optional(Type.String()),
    role: Type.Optional(Type.String()),
    active: Type.Optional(Type.String()),
    search: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 128 }) });
/** As a response schema, the allowlist: the link appears only when no mail could carry it. */
const PasswordResetLink = Type.Object({
  purpose: Type.Union([Type.Literal('reset'), Type.Literal('invite')]),
  sent: Type.Boolean(),
  resetUrl: Type.Optional(Type.String()),
});
const One = { response: { 200: data(User), ...errorResponses } };

export async function userRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  // Every user route needs a signed-in caller; the policy does the rest.
  requireSignInForRoutes(app);

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/users',
    { schema: { querystring: ListQuery, response: { 200: Type.Object({ data: Type.Array(User), meta: Meta }), ...errorResponses } } },
    async (req) => listUsers(svc, req.principal, req.query),
  );
  app.get<{ Params: Static<typeof IdParams> }>('/users/:id', { schema: { params: IdParams, ...One } }, async (req) => ({
    data: await getUser(svc, req.principal, req.params.id),
  }));
  app.get<{ Params: { username: string } }>('/users/by-username/:username', { schema: One }, async (req) => ({
    data: await findUserBy(svc, req.principal, 'username', req.params.username),
  }));
  app.get<{ Params: { email: string } }>('/users/by-email/:email', { schema: One }, async (req) => ({
    data: await findUserBy(svc, req.principal, 'email', req.params.email),
  }));
  app.post<{ Body: Static<typeof CreateBody> }>(
    '/users',
    {
      config: { permission: (p) => requirePermission(p, 'users:write') },
      schema: { body: CreateBody, response: { 201: data(User), ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await createUser(svc, req.principal, req.body) }),
  );
  app.post<{ Body: Static<typeof InviteBody> }>(
    '/users/invite',
    { config: { permission: requireMayInvite }, schema: { body: InviteBody, response: { 201: data(InvitedUser), ...errorResponses } } },
    async (req, reply) => reply.status(201).send({ data: await inviteUser(svc, req.principal, req.body) }),
  );
  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateBody> }>(
    '/users/:id',
    { config: { permission: (p) => requirePermission(p, 'users:write') }, schema: { params: IdParams, body: UpdateBody, ...One } },
    async (req) => ({ data: await updateUser(svc, req.principal, req.params.id, req.body) }),
  );
  app.post<{ Params: Static<typeof IdParams> }>(
    '/users/:id/password-reset',
    {
      config: { permission: (p) => requirePermission(p, 'users:write') },
      schema: { params: IdParams, response: { 200: data(PasswordResetLink), ...errorResponses } },
    },
    async (req) => ({ data: await sendPasswordReset(svc, req.principal, req.params.id) }),
  );
  app.delete<{ Params: Static<typeof IdParams> }>(
    '/users/:id',
    {
      config: { permission: (p) => requirePermission(p, 'users:write') },
      schema: { params: IdParams, response: { 200: Success, ...errorResponses } },
    },
    async (req) => {
      await deleteUser(svc, req.principal, req.params.id);
      return { success: true as const };
    },
  );
}
