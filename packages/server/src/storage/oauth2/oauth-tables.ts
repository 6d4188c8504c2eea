/** The authorization server's tables (migration 012; docs/oauth2.md). */

export interface OAuthGrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  /** Space-separated, as RFC 6749 §3.3 writes scopes. */
  scope: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthDeviceCodesTable {
  /** Normalised: 8 characters, upper case, no dash. */
  user_code: string;
  device_code_hash: string;
  client_id: string;
  scope: string;
  /** `pending`, `approved`, `denied` or `redeemed`. */
  status: string;
  /** The polling interval in seconds; `slow_down` adds 5 (RFC 8628 §3.5). */
  interval_s: number;
  last_polled_at: string | null;
  user_id: string | null;
  granted_scope: string | null;
  grant_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface OAuthAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  /** The S256 challenge (RFC 7636 §4.2), base64url. */
  code_challenge: string;
  /** Set when the code is redeemed: a second use revokes this grant (RFC 6749 §4.1.2). */
  grant_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
