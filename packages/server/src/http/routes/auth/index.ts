import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { errors } from '../../../errors.js';
import { changePassword, passwordOwnerId } from '../../../domain/identity/change-password.js';
import { passwordResetStatus, requestPasswordReset, resetPassword, verifyPasswordToken } from '../../../domain/identity/password-reset.js';
import { claimInstance, claimStatus } from '../../../domain/identity/claim.js';
import { currentUser } from '../../../domain/identity/current-user.js';
import { ownPreferences, replacePreferences } from '../../../domain/identity/preferences.js';
import { describeCredential } from '../../../domain/identity/describe-credential.js';
import { login } from '../../../domain/identity/login.js';
import { logout } from '../../../domain/identity/logout.js';
import { profileOwnerId, updateProfile } from '../../../domain/identity/update-profile.js';
import { refreshSession } from '../../../domain/identity/refresh.js';
import { resolvePrincipal } from '../../../domain/identity/resolve-principal.js';
import type { Services } from '../../../domain/services.js';
import { clearSessionCookies, csrfMatches, readCookie, REFRESH_COOKIE, setSessionCookies } from '../../cookies.js';
import { loginReply } from './login-reply.js';
import * as S from './schemas.js';
import { bearerCredential } from '../../bearer.js';

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

export async function authRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  app.post<{ Body: Static<typeof S.LoginBody> }>(
    '/auth/login',
    { schema: { body: S.LoginBody, response: { 200: S.LoginResult, ...S.errorResponses } } },
    async (req, reply) => loginReply(reply, svc, await login(svc, { ...req.body, ...client(req) })),
  );

  /** The user as `GET /auth/me` serves it: with their preferences when it is their own session. */
  const withPreferences = async <U extends object>(req: FastifyRequest, user: U) => {
    const preferences = await ownPreferences(svc, req.principal);
    return preferences ? { ...user, preferences } : user;
  };

  app.get('/auth/me', { schema: { response: { 200: S.MeWithPreferences, ...S.errorResponses } } }, async (req) => ({
    data: await withPreferences(req, await currentUser(svc, req.principal)),
  }));

  app.put<{ Body: Static<typeof S.PreferencesBody> }>(
    '/auth/me/preferences',
    {
      config: { permission: profileOwnerId },
      schema: { body: S.PreferencesBody, response: { 200: S.PreferencesResponse, ...S.errorResponses } },
    },
    async (req) => ({ data: await replacePreferences(svc, req.principal, req.body) }),
  );

  app.patch<{ Body: Static<typeof S.ProfileBody> }>(
    '/auth/me',
    {
      config: { permission: profileOwnerId },
      schema: { body: S.ProfileBody, response: { 200: S.MeWithPreferences, ...S.errorResponses } },
    },
    async (req) => ({ data: await withPreferences(req, await updateProfile(svc, req.principal, req.body)) }),
  );

  app.post<{ Body: Static<typeof S.ValidateBody> }>(
    '/auth/validate',
    { schema: { body: S.ValidateBody, response: { 200: S.ValidateResponse, ...S.errorResponses } } },
    async (req) => {
      // The token to check comes in the body, or is the bearer itself.
      const p = req.body?.token ? await resolvePrincipal(svc, bearerCredential(`Bearer ${req.body.token}`)) : req.principal;
      return { data: await describeCredential(svc, p) };
    },
  );

  app.post<{ Body: Static<typeof S.RefreshBody> }>(
    '/auth/refresh',
    { config: { ownBearer: true }, schema: { body: S.RefreshBody, response: { 200: S.RefreshResponse, ...S.errorResponses } } },
    async (req, reply) => {
      const bearer = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const cookie = svc.config.security.cookie ? readCookie(req, REFRESH_COOKIE) : undefined;
      const token = req.body?.refreshToken ?? bearer ?? cookie;
      if (!token) throw errors.unauthorized('A refresh token is required (body refreshToken or bearer)');
      if (token === cookie && !csrfMatches(req)) throw errors.forbidden('CSRF token missing or wrong');
      const tokens = await refreshSession(svc, token);
      if (token === cookie) setSessionCookies(reply, svc.config, tokens, svc.config.server.basePath);
      return { data: tokens };
    },
  );

  app.post<{ Body: Static<typeof S.LogoutBody> }>(
    '/auth/logout',
    { schema: { body: S.LogoutBody, response: { 200: S.Success, ...S.errorResponses } } },
    async (req, reply) => {
      const cookie = svc.config.security.cookie ? readCookie(req, REFRESH_COOKIE) : undefined;
      await logout(svc, req.principal, req.body?.refreshToken ?? cookie);
      clearSessionCookies(reply, svc.config, svc.config.server.basePath);
      return { success: true as const };
    },
  );

  app.post<{ Body: Static<typeof S.ChangePasswordBody> }>(
    '/auth/change-password',
    {
      config: { permission: passwordOwnerId },
      schema: { body: S.ChangePasswordBody, response: { 200: S.SuccessData, ...S.errorResponses } },
    },
    async (req) => {
      await changePassword(svc, req.principal, req.body);
      return { data: { success: true as const } };
    },
  );

  // Password reset: the same answer whether or not the address exists (no account enumeration).
  app.post<{ Body: Static<typeof S.RequestResetBody> }>(
    '/auth/request-reset',
    { schema: { body: S.RequestResetBody, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await requestPasswordReset(svc, req.body.email, req.ip, req.body.captchaToken);
      return { data: { success: true as const } };
    },
  );

  // Public, as the page that requests a link is: whether a requested link can be mailed at all.
  app.get('/auth/reset-status', { schema: { response: { 200: S.ResetStatus, ...S.errorResponses } } }, async () => ({
    data: passwordResetStatus(svc),
  }));

  app.post<{ Body: Static<typeof S.TokenBody> }>(
    '/auth/verify-reset-token',
    { schema: { body: S.TokenBody, response: { 200: S.ValidData, ...S.errorResponses } } },
    async (req) => ({ data: { valid: await verifyPasswordToken(svc, req.body.token) } }),
  );

  app.post<{ Body: Static<typeof S.ResetPasswordBody> }>(
    '/auth/reset-password',
    { schema: { body: S.ResetPasswordBody, response: { 200: S.SuccessData, ...S.errorResponses } } },
    async (req) => {
      await resetPassword(svc, req.body.token, req.body.password);
      return { data: { success: true as const } };
    },
  );

  app.get('/auth/claim', { schema: { response: { 200: S.ClaimStatus, ...S.errorResponses } } }, async () => ({
    data: await claimStatus(svc),
  }));

  app.post<{ Body: Static<typeof S.ClaimBody> }>(
    '/auth/claim',
    { schema: { body: S.ClaimBody, response: { 201: S.LoginSuccess, ...S.errorResponses } } },
    async (req, reply) => {
      const result = await claimInstance(svc, { ...req.body, ...client(req) });
      return reply.status(201).send({ data: result });
    },
  );
}
