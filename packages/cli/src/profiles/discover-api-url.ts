import { CliError, EXIT } from '../command.js';
import { reachingFetch } from '../describe-failure.js';

/**
 * The API base URL behind what the user typed: `https://cms.example.com` or `…/api` alike. The
 * authorization server's metadata (RFC 8414 §3, served at the root and under the API) names the
 * token endpoint, `<api>/auth/token`; its path is taken onto the address the user reached, so a
 * server whose configured issuer differs (a proxy, a test port) still works.
 */
export async function discoverApiUrl(given: string): Promise<string> {
  let base: URL;
  try {
    base = new URL(given.replace(/\/+$/, ''));
  } catch {
    throw new CliError(`"${given}" is not a URL (expected https://host or https://host/api)`, EXIT.usage);
  }
  const res = await reachingFetch(given)(`${base.href.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`, {
    headers: { accept: 'application/json' },
  });
  const body = (await res.json().catch(() => undefined)) as { token_endpoint?: string; error?: { message?: string } } | undefined;
  if (res.status === 501)
    throw new CliError(`${given} does not offer sign-in from the command line (oauth2.enabled is off)`, EXIT.unavailable);
  if (!res.ok || typeof body?.token_endpoint !== 'string')
    throw new CliError(`${given} did not answer as a Vellum server (no OAuth metadata: HTTP ${res.status})`, EXIT.unavailable);
  const apiPath = new URL(body.token_endpoint).pathname.replace(/\/auth\/token$/, '');
  return `${base.origin}${apiPath}`;
}
