import type { LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustDevice } from '../../packages/server/src/domain/mfa/trusted-devices.js';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { form } from '../helpers/oauth2.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { passkeyClient, PASSKEY_ORIGIN } from '../helpers/passkey-client.js';
import { enableTotp, TOTP_PERIOD_MS, totpCode } from '../helpers/totp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// Every "start something" step called ten times at once by one caller (issue 23, bug C): a
// double-click must never be a 500. Each answer is a 2xx, or a 4xx where one of the calls must
// lose (409 for a taken username, 404 for a request decided already), and the end state is
// consistent: one pending method, one live code, one trusted device, the last rotated secret
// signing. On PostgreSQL the requests really overlap (`inject` calls run concurrently and the
// pool has ten connections); SQLite serialises the writes, so there the suite checks outcomes.

const TIMES = 10;
const PASSWORD = 'concurrent-password-1';
const ISSUER = 'https://vellum.example';
const SPA = { clientId: 'spa', name: 'Single-page app', redirectUris: ['http://127.0.0.1:4000/callback'] };

const mail = useMailCatcher();
const idp = useOidcProvider();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

let t: TestApp;
let admin: string;
useAdminApp(
  () =>
    startTestApp({
      mail: { smtpUrl: mail.url, from: 'Vellum <cms@example.com>' },
      security: {
        ...idp.config().security,
        // Generous: every call of this file comes from one address; the limits have their own tests.
        rateLimit: { login: { windowMs: 900_000, max: 10_000 } },
        passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN },
      },
      oauth2: { enabled: true, issuer: ISSUER, clients: [SPA] },
      webhooks: { allowPrivateNetworks: true },
    }),
  (app, token) => ((t = app), (admin = token)),
);
const passkeys = passkeyClient(() => t);

/** `call` ten times at once. */
const tenAtOnce = (call: (i: number) => Promise<LightMyRequestResponse>) => Promise.all(Array.from({ length: TIMES }, (_, i) => call(i)));

/** No answer is a 5xx; the statuses, for the step's own assertions. */
function statuses(answers: LightMyRequestResponse[]): number[] {
  for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
  return answers.map((res) => res.statusCode);
}

let n = 0;
/** A fresh user with a password and a session token. */
async function newUser(): Promise<{ id: string; username: string; email: string; token: string }> {
  const username = `race${++n}`;
  const email = `${username}@example.com`;
  const id = await createUser(t, admin, { username, password: PASSWORD, email });
  return { id, username, email, token: await t.login(username, PASSWORD) };
}

/** The six-digit codes mailed to `email` so far. */
function mailedCodes(email: string): string[] {
  return mail.mails
    .filter((m) => m.to.includes(email))
    .map((m) => /code (?:to [^.]*? )?is (\d{6})\./.exec(m.decoded)?.[1])
    .filter((c): c is string => c !== undefined);
}

/** Rows of a table for one user, read directly: what the API does not show (pending setups, live codes). */
async function rowsOf(table: 'mfa_methods' | 'mfa_email_codes' | 'trusted_devices', userId: string) {
  return t.app.services.database.db.selectFrom(table).selectAll().where('user_id', '=', userId).execute();
}

describe('multi-factor setup, ten at once', () => {
  it('TOTP setup: every call answers 200, one method is pending, and the secret it holds is one the calls showed', async () => {
    const user = await newUser();
    const answers = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: user.token }));
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    const rows = await rowsOf('mfa_methods', user.id);
    expect(rows.map((r) => [r.method, r.enabled_at])).toEqual([['totp', null]]);
    // The last setup wins: exactly one of the shown secrets confirms, the others are wrong codes.
    const secrets = answers.map((res) => res.json().data.secret as string);
    const results: number[] = [];
    for (const secret of secrets) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/mfa/setup/totp/verify',
        token: user.token,
        payload: { code: totpCode(secret) },
      });
      results.push(res.statusCode);
      if (res.statusCode === 200) break;
    }
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.slice(0, -1).every((s) => s === 401)).toBe(true);
    const status = await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: user.token });
    expect(status.json().data.methods).toEqual(['totp']);
  });

  it('ten confirmations of one TOTP setup at once: one enables it, the rest are refused with a 4xx', async () => {
    const user = await newUser();
    const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: user.token });
    const code = totpCode(setup.json().data.secret);
    const answers = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: user.token, payload: { code } }),
    );
    const got = statuses(answers);
    expect(got.filter((s) => s === 200)).toHaveLength(1);
    expect(got.filter((s) => s === 409)).toHaveLength(TIMES - 1);
    const status = await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: user.token });
    expect(status.json().data).toMatchObject({ methods: ['totp'], backupCodesRemaining: 10 });
  });

  it('setup started again while it is being confirmed: enabled only with the secret the code was from', async () => {
    const user = await newUser();
    const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: user.token });
    const first = setup.json().data.secret as string;
    const code = totpCode(first);
    const answers = await tenAtOnce((i) =>
      i % 2 === 0
        ? t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: user.token, payload: { code } })
        : t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: user.token }),
    );
    const got = statuses(answers);
    const rows = await rowsOf('mfa_methods', user.id);
    expect(rows).toHaveLength(1);
    if (rows[0].enabled_at === null) {
      // Every confirmation lost to a newer setup: that setup's secret is pending.
      expect(got.filter((s, i) => i % 2 === 0 && s === 200)).toHaveLength(0);
      return;
    }
    // Enabled by the confirmation: with the secret it checked, so the first secret signs in (a
    // later period's code, past the replay guard).
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: PASSWORD } });
    const mfaToken = login.json().data.mfaToken as string;
    const later = totpCode(first, Date.now() + TOTP_PERIOD_MS);
    const res = await t.request({ method: 'POST', url: '/api/auth/mfa/verify', payload: { mfaToken, method: 'totp', code: later } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('email setup: every call answers 200, one method is pending, one code is live, and it confirms', async () => {
    const user = await newUser();
    const answers = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: user.token }));
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    expect((await rowsOf('mfa_methods', user.id)).map((r) => [r.method, r.enabled_at])).toEqual([['email', null]]);
    expect(await rowsOf('mfa_email_codes', user.id)).toHaveLength(1);
    await mail.waitFor(user.email, TIMES);
    const codes = mailedCodes(user.email);
    const results: number[] = [];
    for (const code of codes) {
      const res = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: user.token, payload: { code } });
      results.push(res.statusCode);
      if (res.statusCode === 200) break;
    }
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.slice(0, -1).every((s) => s === 401)).toBe(true);
  });

  it('email codes at sign-in: ten logins and ten sends at once leave one live code, and it signs in', async () => {
    const user = await newUser();
    const sent = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: user.token });
    expect(sent.statusCode).toBe(200);
    await mail.waitFor(user.email, 1);
    const [setupCode] = mailedCodes(user.email);
    const done = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/setup/email/verify',
      token: user.token,
      payload: { code: setupCode },
    });
    expect(done.statusCode, done.body).toBe(200);

    // Each login with email as the only method mails a code.
    const logins = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: PASSWORD } }),
    );
    expect(statuses(logins)).toEqual(Array(TIMES).fill(200));
    const mfaTokens = logins.map((res) => res.json().data.mfaToken as string);
    const mfaToken = mfaTokens[0];
    const sends = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/mfa/email/send', payload: { mfaToken } }));
    expect(statuses(sends)).toEqual(Array(TIMES).fill(200));
    expect(await rowsOf('mfa_email_codes', user.id)).toHaveLength(2);
    await mail.waitFor(user.email, 1 + 2 * TIMES);
    const codes = mailedCodes(user.email).slice(1);
    let signedIn = 0;
    // A login's token allows five tries: each code is tried with a token of its own turn.
    for (const [i, code] of codes.entries()) {
      const payload = { mfaToken: mfaTokens[i % TIMES], method: 'email', code };
      const res = await t.request({ method: 'POST', url: '/api/auth/mfa/verify', payload });
      expect([200, 401]).toContain(res.statusCode);
      if (res.statusCode === 200) {
        signedIn++;
        break;
      }
    }
    expect(signedIn).toBe(1);
  });

  it('regenerating backup codes ten times at once leaves one set of ten, the set one call showed', async () => {
    const user = await newUser();
    await enableTotp(t, user.token);
    const answers = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/auth/mfa/backup-codes/regenerate', token: user.token, payload: { password: PASSWORD } }),
    );
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    const status = await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: user.token });
    expect(status.json().data.backupCodesRemaining).toBe(10);
    // The first code of each set: exactly one set still signs in.
    const firsts = answers.map((res) => (res.json().data.backupCodes as string[])[0]);
    let working = 0;
    for (const code of firsts) {
      const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: PASSWORD } });
      const mfaToken = login.json().data.mfaToken as string;
      const res = await t.request({ method: 'POST', url: '/api/auth/mfa/verify-backup', payload: { mfaToken, code } });
      expect([200, 401]).toContain(res.statusCode);
      if (res.statusCode === 200) working++;
    }
    expect(working).toBe(1);
  });

  it('trusting one device ten times at once keeps one trusted device', async () => {
    // Over HTTP a device is trusted by a verified code, and a code verifies once: the operation
    // behind it is called directly, as ten verifications of different codes would.
    const user = await newUser();
    await enableTotp(t, user.token);
    const deviceId = 'concurrent-device-0123456789';
    await Promise.all(Array.from({ length: TIMES }, (_, i) => trustDevice(t.app.services, user.id, deviceId, `Laptop ${i}`)));
    const list = await t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: user.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { deviceId: string }) => d.deviceId)).toEqual([deviceId]);
  });
});

describe('sign-in steps, ten at once', () => {
  it('ten logins of one user at once: ten sessions, each working', async () => {
    const user = await newUser();
    const answers = await tenAtOnce(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.username, password: PASSWORD, deviceId: 'same-device-0123456789' },
      }),
    );
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    for (const res of answers) {
      const me = await t.request({ method: 'GET', url: '/api/auth/me', token: res.json().data.token });
      expect(me.statusCode).toBe(200);
    }
  });

  it('ten logins at once under session.maxConcurrent: no more live sessions than the limit', async () => {
    const limited = await startTestApp({ security: { session: { maxConcurrent: 3 } } });
    try {
      const answers = await tenAtOnce(() =>
        limited.request({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } }),
      );
      expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
      let live = 0;
      for (const res of answers) {
        const me = await limited.request({ method: 'GET', url: '/api/auth/me', token: res.json().data.token });
        expect([200, 401]).toContain(me.statusCode);
        if (me.statusCode === 200) live++;
      }
      expect(live).toBe(3);
    } finally {
      await limited.close();
    }
  });

  it('passkey registration and sign-in options: ten challenges, each one usable', async () => {
    const user = await newUser();
    const options = await tenAtOnce(() => passkeys.call('POST', '/register/options', {}, user.token));
    expect(statuses(options)).toEqual(Array(TIMES).fill(200));
    expect(new Set(options.map((res) => res.json().data.challenge)).size).toBe(TIMES);
    const key = passkeys.newAuthenticator();
    const registered = await passkeys.call('POST', '/register/verify', { response: key.register(options[3].json().data) }, user.token);
    expect(registered.statusCode, registered.body).toBe(201);

    const logins = await tenAtOnce(() => passkeys.call('POST', '/login/options', {}));
    expect(statuses(logins)).toEqual(Array(TIMES).fill(200));
    const signIn = await passkeys.call('POST', '/login/verify', { response: key.assert(logins[7].json().data) });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });

  it('one authenticator registered ten times at once: one 201, the rest 409, one credential stored', async () => {
    const user = await newUser();
    const key = passkeys.newAuthenticator();
    const options: Array<{ challenge: string; user: { id: string } }> = [];
    for (let i = 0; i < TIMES; i++) options.push((await passkeys.call('POST', '/register/options', {}, user.token)).json().data);
    const answers = await tenAtOnce((i) => passkeys.call('POST', '/register/verify', { response: key.register(options[i]) }, user.token));
    const got = statuses(answers);
    expect(got.filter((s) => s === 201)).toHaveLength(1);
    expect(got.filter((s) => s === 409)).toHaveLength(TIMES - 1);
    const list = await passkeys.call('GET', '/credentials', undefined, user.token);
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([key.id]);
  });

  it('provider sign-in: ten authorization requests at once, each with a state of its own', async () => {
    const inits = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', payload: {} }));
    expect(statuses(inits)).toEqual(Array(TIMES).fill(200));
    expect(new Set(inits.map((res) => res.json().data.state)).size).toBe(TIMES);
  });

  it('one provider account linked to one user ten times at once: each answers 200 (linking again is no change), one link', async () => {
    const user = await newUser();
    const flows: Array<{ code: string; state: string }> = [];
    for (let i = 0; i < TIMES; i++) flows.push(await idp.authorize(t, 'link', user.token));
    idp.state.claims = { sub: `race-link-${user.username}`, email: `${user.username}@idp.example`, email_verified: true };
    const links = await tenAtOnce((i) => t.request({ method: 'POST', url: '/api/auth/oauth/idp/callback', payload: flows[i] }));
    expect(statuses(links), links.map((res) => res.body).join('\n')).toEqual(Array(TIMES).fill(200));
    const rows = await t.app.services.database.db.selectFrom('idp_links').select('subject').where('user_id', '=', user.id).execute();
    expect(rows).toEqual([{ subject: `race-link-${user.username}` }]);
  });

  it('one provider account linked by ten users at once: one 200, the rest 409', async () => {
    const users: Array<Awaited<ReturnType<typeof newUser>>> = [];
    for (let i = 0; i < TIMES; i++) users.push(await newUser());
    const flows: Array<{ code: string; state: string }> = [];
    for (const user of users) flows.push(await idp.authorize(t, 'link', user.token));
    const sub = `race-shared-${users[0].username}`;
    idp.state.claims = { sub, email: `${sub}@idp.example`, email_verified: true };
    const links = await tenAtOnce((i) => t.request({ method: 'POST', url: '/api/auth/oauth/idp/callback', payload: flows[i] }));
    const got = statuses(links);
    expect(got.filter((s) => s === 200)).toHaveLength(1);
    expect(got.filter((s) => s === 409)).toHaveLength(TIMES - 1);
  });

  it('password reset requests for one address at once: each answers 200 and each mailed link is live', async () => {
    const user = await newUser();
    const answers = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/request-reset', payload: { email: user.email } }));
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    await mail.waitFor(user.email, TIMES);
    const tokens = mail.mails.filter((m) => m.to.includes(user.email)).map((m) => /token=([0-9A-Za-z]{43})/.exec(m.decoded)?.[1] as string);
    expect(new Set(tokens).size).toBe(TIMES);
    for (const token of tokens) {
      const res = await t.request({ method: 'POST', url: '/api/auth/verify-reset-token', payload: { token } });
      expect(res.json().data.valid).toBe(true);
    }
  });
});

describe('OAuth 2.0 starts, ten at once', () => {
  it('device authorization: ten requests, ten user codes; ten approvals of one code, one wins', async () => {
    const starts = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/auth/device', ...form({ client_id: 'service-cli', scope: 'content:read' }) }),
    );
    expect(statuses(starts)).toEqual(Array(TIMES).fill(200));
    expect(new Set(starts.map((res) => res.json().user_code)).size).toBe(TIMES);
    const userCode = starts[0].json().user_code as string;
    const approvals = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/auth/device/verify', token: admin, payload: { user_code: userCode, action: 'approve' } }),
    );
    const got = statuses(approvals);
    expect(got.filter((s) => s === 200)).toHaveLength(1);
    expect(got.filter((s) => s === 404)).toHaveLength(TIMES - 1);
  });

  it('authorization codes: ten approvals of one request at once, ten codes', async () => {
    const payload = {
      response_type: 'code',
      client_id: SPA.clientId,
      redirect_uri: SPA.redirectUris[0],
      scope: 'content:read',
      state: 'same-state',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      action: 'approve',
    };
    const answers = await tenAtOnce(() => t.request({ method: 'POST', url: '/api/auth/authorize', token: admin, payload }));
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    const codes = answers.map((res) => new URL(res.json().data.redirectUrl).searchParams.get('code'));
    expect(new Set(codes).size).toBe(TIMES);
  });
});

describe('administration starts, ten at once', () => {
  it('inviting one username ten times at once: one 201, the rest 409, one user', async () => {
    const username = `invitee${++n}`;
    const answers = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/users/invite', token: admin, payload: { username, email: `${username}@example.com` } }),
    );
    const got = statuses(answers);
    expect(got.filter((s) => s === 201)).toHaveLength(1);
    expect(got.filter((s) => s === 409)).toHaveLength(TIMES - 1);
    const found = await t.request({ method: 'GET', url: `/api/users/by-username/${username}`, token: admin });
    expect(found.statusCode).toBe(200);
  });

  it('inviting one address under ten usernames at once: one 201, the rest 409', async () => {
    const email = `shared${++n}@example.com`;
    const answers = await tenAtOnce((i) =>
      t.request({ method: 'POST', url: '/api/users/invite', token: admin, payload: { username: `shared${n}-${i}`, email } }),
    );
    const got = statuses(answers);
    expect(got.filter((s) => s === 201)).toHaveLength(1);
    expect(got.filter((s) => s === 409)).toHaveLength(TIMES - 1);
  });

  it('creating API tokens of one name at once: ten tokens, each working', async () => {
    const answers = await tenAtOnce(() =>
      t.request({ method: 'POST', url: '/api/tokens', token: admin, payload: { name: 'Deploy', permissions: ['content:read'] } }),
    );
    expect(statuses(answers)).toEqual(Array(TIMES).fill(201));
    for (const res of answers) {
      const check = await t.request({ method: 'GET', url: '/api/auth/me', token: res.json().data.token });
      expect(check.statusCode).toBeLessThan(500);
    }
    expect(new Set(answers.map((res) => res.json().data.apiToken.id)).size).toBe(TIMES);
  });

  it("rotating a webhook's secret ten times at once: each answers 200 and exactly one of the shown secrets signs", async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: { name: 'Rotated', url: receiver.url('/rotated'), events: ['document.*'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.webhook.id as string;
    const answers = await tenAtOnce(() => t.request({ method: 'POST', url: `/api/webhooks/${id}/rotate-secret`, token: admin }));
    expect(statuses(answers)).toEqual(Array(TIMES).fill(200));
    const secrets = answers.map((res) => res.json().data.secret as string);
    const sent = await t.request({ method: 'POST', url: `/api/webhooks/${id}/test`, token: admin });
    expect(sent.statusCode, sent.body).toBe(200);
    const [got] = receiver.to('/rotated');
    const verifies = secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
    expect(verifies).toHaveLength(1);
  });
});
