import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { listPasskeys, removeUserPasskey, renameUserPasskey } from '../../../domain/passkeys/manage-passkeys.js';
import { passkeyStatus, requirePasskeys, requireSessionUser } from '../../../domain/passkeys/passkey-settings.js';
import { passkeyLoginOptions, verifyPasskeyLogin } from '../../../domain/passkeys/passkey-sign-in.js';
import { passkeyRegistrationOptions, verifyPasskeyRegistration } from '../../../domain/passkeys/register-passkey.js';
import type { Services } from '../../../domain/services.js';
import { setSessionCookies } from '../../cookies.js';
import { gateRoutes } from '../../plugins/authenticate.js';
import * as S from './schemas.js';

type CredentialRoute = { Params: Static<typeof S.CredentialParams> };

/**
 * Passkeys (docs/api.md, "Passkeys"). With them off every route but the status answers 501, signed
 * in or not, before its body is read; a user's own passkeys need that user's session (anonymous
 * 401, an API token 403), checked before the body too. The operations ask both again.
 */
export async function passkeyRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  app.get('/auth/passkey/status', { schema: { response: { 200: S.Status, ...S.errorResponses } } }, async () => ({
    data: passkeyStatus(svc),
  }));

  gateRoutes(app, () => requirePasskeys(svc));
  const own = { permission: requireSessionUser };

  app.post(
    '/auth/passkey/register/options',
    { config: own, schema: { body: S.EmptyBody, response: { 200: S.CreationOptions, ...S.errorResponses } } },
    async (req) => ({ data: await passkeyRegistrationOptions(svc, req.principal) }),
  );

  app.post<{ Body: Static<typeof S.RegistrationVerifyBody> }>(
    '/auth/passkey/register/verify',
    { config: own, schema: { body: S.RegistrationVerifyBody, response: { 201: S.CredentialData, ...S.errorResponses } } },
    async (req, reply) => {
      const input = { response: req.body.response as RegistrationResponseJSON, name: req.body.name };
      return reply.status(201).send({ data: await verifyPasskeyRegistration(svc, req.principal, input) });
    },
  );

  app.post(
    '/auth/passkey/login/options',
    { schema: { body: S.EmptyBody, response: { 200: S.RequestOptions, ...S.errorResponses } } },
    async () => ({ data: await passkeyLoginOptions(svc) }),
  );

  app.post<{ Body: Static<typeof S.LoginVerifyBody> }>(
    '/auth/passkey/login/verify',
    { schema: { body: S.LoginVerifyBody, response: { 200: S.LoginSuccess, ...S.errorResponses } } },
    async (req, reply) => {
      const result = await verifyPasskeyLogin(svc, {
        response: req.body.response as AuthenticationResponseJSON,
        deviceId: req.body.deviceId,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      setSessionCookies(reply, svc.config, result.tokens, svc.config.server.basePath);
      return { data: { ...result.tokens, user: result.user } };
    },
  );

  app.get(
    '/auth/passkey/credentials',
    { config: own, schema: { response: { 200: S.CredentialList, ...S.errorResponses } } },
    async (req) => ({
      data: await listPasskeys(svc, req.principal),
    }),
  );

  app.patch<CredentialRoute & { Body: Static<typeof S.RenameBody> }>(
    '/auth/passkey/credentials/:credentialId',
    { config: own, schema: { params: S.CredentialParams, body: S.RenameBody, response: { 200: S.CredentialData, ...S.errorResponses } } },
    async (req) => ({ data: await renameUserPasskey(svc, req.principal, req.params.credentialId, req.body.name) }),
  );

  app.delete<CredentialRoute>(
    '/auth/passkey/credentials/:credentialId',
    { config: own, schema: { params: S.CredentialParams, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await removeUserPasskey(svc, req.principal, req.params.credentialId);
      return { data: { success: true as const } };
    },
  );
}
