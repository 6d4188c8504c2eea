import type { OAuthScope } from '../../config/oauth-scopes.js';
import { errors, isAppError } from '../../errors.js';
import type { Services } from '../services.js';
import { findClient, type OAuthClient } from './clients.js';
import { isS256Challenge } from './pkce.js';
import { parseScope } from './scopes.js';

/** The parameters of an authorization request as received: a query parameter sent twice arrives as a list. */
export type AuthorizationParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request that passed every check of RFC 6749 §4.1.1 and RFC 7636 §4.3. */
export interface AuthorizationRequest {
  client: OAuthClient;
  /** The redirect URI the response goes to: the one sent, or the client's only registered one. */
  redirectUri: string;
  scopes: OAuthScope[];
  state?: string;
  codeChallenge: string;
}

/** Either a request to act on, or the error response to send to the client's redirect URI. */
export type CheckedAuthorization = { ok: true; request: AuthorizationRequest } | { ok: false; redirectUrl: string };

/**
 * Checks an authorization request (docs/oauth2.md, "Authorization code with PKCE"):
 * 1. the client and the redirect URI: a problem with either is shown to the user as 400
 *    `INVALID_INPUT` and never redirected, or the server would be an open redirector
 *    (RFC 6749 §4.1.2.1, RFC 9700 §4.11);
 * 2. everything else goes back to the client's redirect URI as an error response: the response
 *    type, PKCE with S256 only (RFC 7636 §4.4.1, RFC 9700 §2.1.1), the scope.
 */
export function checkAuthorizationRequest(svc: Services, params: AuthorizationParams): CheckedAuthorization {
  // 1. Who is asking, and where the answer may go.
  const client = authorizingClient(svc, shown(params, 'client_id'));
  const redirectUri = registeredRedirect(client, shown(params, 'redirect_uri'));

  // 2. The rest is answered at the redirect URI, with the state when it came once.
  const state = typeof params.state === 'string' ? params.state : undefined;
  const fail = (error: string, description: string) => ({
    ok: false as const,
    redirectUrl: authorizationResponseUrl(svc, redirectUri, { error, error_description: description, state }),
  });
  // RFC 6749 §3.1: no parameter may be sent twice.
  const repeated = Object.entries(params).find(([, v]) => Array.isArray(v));
  if (repeated) return fail('invalid_request', `Parameter ${repeated[0]} is repeated`);
  const p = params as Readonly<Record<string, string | undefined>>;
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  if (p.code_challenge === undefined || p.code_challenge === '') return fail('invalid_request', 'code_challenge is required (PKCE)');
  if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!isS256Challenge(p.code_challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters');
  let scopes: OAuthScope[];
  try {
    scopes = parseScope(p.scope, client.scopes);
  } catch (err) {
    if (isAppError(err) && err.code === 'invalid_scope') return fail('invalid_scope', err.message);
    throw err;
  }
  return { ok: true, request: { client, redirectUri, scopes, state, codeChallenge: p.code_challenge } };
}

/**
 * The client's redirect URI with the response parameters added, keeping any query the registered
 * URI has (RFC 6749 §3.1.2). `iss` names this server, so a client talking to several cannot be
 * fooled into sending a code to the wrong one (RFC 9207 §2).
 */
export function authorizationResponseUrl(svc: Services, redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  query.set('iss', svc.config.oauth2.issuer);
  const sep = !redirectUri.includes('?') ? '?' : /[?&]$/.test(redirectUri) ? '' : '&';
  return `${redirectUri}${sep}${query.toString()}`;
}

/** A parameter whose problems are shown rather than redirected: present once, or absent. */
function shown(params: AuthorizationParams, name: 'client_id' | 'redirect_uri'): string | undefined {
  const v = params[name];
  if (typeof v === 'string' || v === undefined) return v === '' ? undefined : v;
  throw errors.invalidInput(`Parameter ${name} is repeated`, [{ field: name, message: 'repeated' }]);
}

function authorizingClient(svc: Services, clientId: string | undefined): OAuthClient {
  if (clientId === undefined) throw errors.invalidInput('client_id is required', [{ field: 'client_id', message: 'required' }]);
  const client = findClient(svc, clientId);
  if (!client) throw errors.invalidInput('Unknown client', [{ field: 'client_id', message: 'unknown client' }]);
  if (!client.grants.includes('authorization_code') || client.redirectUris.length === 0)
    throw errors.invalidInput('This client may not use the authorization code flow', [
      { field: 'client_id', message: 'not allowed the authorization_code grant' },
    ]);
  return client;
}

/**
 * RFC 6749 §3.1.2.3 with RFC 9700 §4.1.3: the redirect URI must be one the client registered,
 * compared as strings; a client with exactly one may leave it out.
 */
function registeredRedirect(client: OAuthClient, uri: string | undefined): string {
  if (uri === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0];
    throw errors.invalidInput('redirect_uri is required: this client registered several', [{ field: 'redirect_uri', message: 'required' }]);
  }
  if (!client.redirectUris.includes(uri))
    throw errors.invalidInput('redirect_uri is not registered for this client', [{ field: 'redirect_uri', message: 'not registered' }]);
  return uri;
}
