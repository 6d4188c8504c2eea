import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { requireMail, sendLoginEmailCode } from '../../../domain/mfa/email-codes.js';
import { confirmEmailSetup, startEmailSetup } from '../../../domain/mfa/email-setup.js';
import { adminResetMfa, disableAllMfa, disableMfaMethod, mfaStatus, regenerateBackupCodes } from '../../../domain/mfa/manage-mfa.js';
import { resolveSetupCaller } from '../../../domain/mfa/setup-caller.js';
import { confirmTotpSetup, startTotpSetup } from '../../../domain/mfa/totp-setup.js';
import { listOwnTrustedDevices, revokeOwnTrustedDevices, signedInUserId } from '../../../domain/mfa/trusted-devices.js';
import { verifyBackupLogin, verifyMfaLogin } from '../../../domain/mfa/verify-login.js';
import type { Services } from '../../../domain/services.js';
import { requireAdminRole } from '../../../domain/access/policy.js';
import { setSessionCookies } from '../../cookies.js';
import type { PermissionCheck } from '../../plugins/authenticate.js';
import * as S from './schemas.js';

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const setupHeader = (headers: IncomingHttpHeaders) => {
  const value = headers['x-mfa-setup-token'];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const ok = { data: { success: true as const } };
/** The caller's own second factor: a user's session (anonymous 401, an API token 403), before the body. */
const own = { permission: signedInUserId };

/** Multi-factor sign-in (docs/api.md, "Multi-factor authentication"); the rules live in domain/mfa/. */
export async function mfaRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  // Email codes need mail: without it those routes are 501 for everyone, before the body.
  const mail = () => requireMail(svc);
  // Setup takes a session or the setup token of a held login, both outside the body: whoever is
  // neither is refused (401, an API token 403) before the body is read; the route resolves the
  // caller again for its operation.
  const setup: { permission: PermissionCheck } = {
    permission: (principal, _params, headers) => resolveSetupCaller(svc, principal, setupHeader(headers)),
  };
  app.post<{ Body: Static<typeof S.VerifyBody> }>(
    '/auth/mfa/verify',
    { schema: { body: S.VerifyBody, response: { 200: S.SignedIn, ...S.errorResponses } } },
    async (req, reply) => {
      const { tokens, user } = await verifyMfaLogin(svc, { ...req.body, ...client(req) });
      setSessionCookies(reply, svc.config, tokens, svc.config.server.basePath);
      return { data: { ...tokens, user } };
    },
  );

  app.post<{ Body: Static<typeof S.VerifyBackupBody> }>(
    '/auth/mfa/verify-backup',
    { schema: { body: S.VerifyBackupBody, response: { 200: S.SignedIn, ...S.errorResponses } } },
    async (req, reply) => {
      const { tokens, user } = await verifyBackupLogin(svc, { ...req.body, ...client(req) });
      setSessionCookies(reply, svc.config, tokens, svc.config.server.basePath);
      return { data: { ...tokens, user } };
    },
  );

  app.post<{ Body: Static<typeof S.EmailSendBody> }>(
    '/auth/mfa/email/send',
    { config: { feature: mail }, schema: { body: S.EmailSendBody, response: { 200: S.Sent, ...S.errorResponses } } },
    async (req) => {
      await sendLoginEmailCode(svc, req.body.mfaToken);
      return { data: { sent: true as const } };
    },
  );

  // Setup: a session or the `x-mfa-setup-token` header of a login held at `requiresMFASetup`.
  app.post('/auth/mfa/setup/totp', { config: setup, schema: { response: { 200: S.TotpSetup, ...S.errorResponses } } }, async (req) => ({
    data: await startTotpSetup(svc, await resolveSetupCaller(svc, req.principal, setupHeader(req.headers))),
  }));

  app.post<{ Body: Static<typeof S.SetupVerifyBody> }>(
    '/auth/mfa/setup/totp/verify',
    { config: setup, schema: { body: S.SetupVerifyBody, response: { 200: S.SetupVerified, ...S.errorResponses } } },
    async (req, reply) => {
      const caller = await resolveSetupCaller(svc, req.principal, setupHeader(req.headers));
      const result = await confirmTotpSetup(svc, caller, req.body.code, client(req));
      // Finishing a held login opens a session: with cookie sessions it gets its cookies like a login.
      if ('token' in result) setSessionCookies(reply, svc.config, result, svc.config.server.basePath);
      return { data: result };
    },
  );

  app.post(
    '/auth/mfa/setup/email',
    { config: { ...setup, feature: mail }, schema: { response: { 200: S.Sent, ...S.errorResponses } } },
    async (req) => ({ data: await startEmailSetup(svc, await resolveSetupCaller(svc, req.principal, setupHeader(req.headers))) }),
  );

  app.post<{ Body: Static<typeof S.SetupVerifyBody> }>(
    '/auth/mfa/setup/email/verify',
    // Without mail no email setup can be pending: the method's endpoints are all 501 (docs/authentication.md).
    { config: { ...setup, feature: mail }, schema: { body: S.SetupVerifyBody, response: { 200: S.SetupVerified, ...S.errorResponses } } },
    async (req, reply) => {
      const caller = await resolveSetupCaller(svc, req.principal, setupHeader(req.headers));
      const result = await confirmEmailSetup(svc, caller, req.body.code, client(req));
      if ('token' in result) setSessionCookies(reply, svc.config, result, svc.config.server.basePath);
      return { data: result };
    },
  );

  app.get('/auth/mfa/status', { config: own, schema: { response: { 200: S.Status, ...S.errorResponses } } }, async (req) => ({
    data: await mfaStatus(svc, req.principal),
  }));

  app.post<{ Body: Static<typeof S.DisableBody> }>(
    '/auth/mfa/disable',
    { config: own, schema: { body: S.DisableBody, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await disableMfaMethod(svc, req.principal, req.body);
      return ok;
    },
  );

  app.post<{ Body: Static<typeof S.PasswordBody> }>(
    '/auth/mfa/disable-all',
    { config: own, schema: { body: S.PasswordBody, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await disableAllMfa(svc, req.principal, req.body.password);
      return ok;
    },
  );

  app.post<{ Body: Static<typeof S.PasswordBody> }>(
    '/auth/mfa/backup-codes/regenerate',
    { config: own, schema: { body: S.PasswordBody, response: { 200: S.BackupCodes, ...S.errorResponses } } },
    async (req) => ({ data: { backupCodes: await regenerateBackupCodes(svc, req.principal, req.body.password) } }),
  );

  app.get(
    '/auth/mfa/trusted-devices',
    { config: own, schema: { response: { 200: S.TrustedDevices, ...S.errorResponses } } },
    async (req) => ({ data: await listOwnTrustedDevices(svc, req.principal) }),
  );

  app.delete(
    '/auth/mfa/trusted-devices',
    { config: own, schema: { response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await revokeOwnTrustedDevices(svc, req.principal);
      return ok;
    },
  );

  app.delete<{ Params: Static<typeof S.IdParams> }>(
    '/auth/mfa/trusted-devices/:id',
    { config: own, schema: { params: S.IdParams, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await revokeOwnTrustedDevices(svc, req.principal, req.params.id);
      return ok;
    },
  );

  app.post<{ Params: Static<typeof S.UserIdParams> }>(
    '/admin/users/:userId/mfa/reset',
    {
      config: { auth: true, permission: requireAdminRole },
      schema: { params: S.UserIdParams, response: { 200: S.SuccessData, ...S.errorResponses } },
    },
    async (req) => {
      await adminResetMfa(svc, req.principal, req.params.userId);
      return ok;
    },
  );
}
