import type { TestApp } from './app.js';

/** A form-encoded body, as RFC 6749 §3.2 and RFC 8628 §3.1 have clients send it. */
export const form = (body: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(body).toString(),
});

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceTokens {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/**
 * The device flow through the API, for suites that need an OAuth access token rather than the
 * flow itself: the CLI client asks for `scope`, the user behind `userBearer` approves (narrowed to
 * `approve` when given), the device redeems its code.
 */
export async function deviceTokens(t: TestApp, userBearer: string, scope: string, approve?: string[]): Promise<DeviceTokens> {
  const started = await t.request({ method: 'POST', url: '/api/auth/device', ...form({ client_id: 'service-cli', scope }) });
  if (started.statusCode !== 200) throw new Error(`device authorization failed: ${started.body}`);
  const { device_code: deviceCode, user_code: userCode } = started.json();
  const decided = await t.request({
    method: 'POST',
    url: '/api/auth/device/verify',
    token: userBearer,
    payload: { user_code: userCode, action: 'approve', ...(approve ? { scopes: approve } : {}) },
  });
  if (decided.statusCode !== 200) throw new Error(`approval failed: ${decided.body}`);
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: 'service-cli' }),
  });
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.body}`);
  return res.json();
}
