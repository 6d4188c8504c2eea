import type { OAuthAuthCodesTable, OAuthDeviceCodesTable, OAuthGrantsTable, OAuthRefreshTokensTable } from './oauth2/oauth-tables.js';
import type { Generated } from 'kysely';
import type { WebhookDeliveriesTable, WebhooksTable } from './webhooks/webhook-tables.js';
import type { SchedulesTable } from './schedules/schedules-table.js';
import type {
  DocumentCountsTable,
  DocumentDraftMediaTable,
  DocumentDraftsTable,
  DocumentMediaTable,
  DocumentRefsTable,
  DocumentRevisionsTable,
  DocumentsTable,
} from './documents/document-tables.js';

export type * from './documents/document-tables.js';

/**
 * Row shapes as stored. Timestamps are ISO 8601 UTC strings with milliseconds on both dialects:
 * fixed width, so they order correctly as text and read back without conversion. The documents'
 * own tables are in documents/document-tables.ts.
 */

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string;
  permissions: string;
  active: number | boolean;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  mfa_enabled: Generated<number | boolean>;
  /** JSON object text, `{}` by default (migration 019). */
  preferences: Generated<string>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  revoked_at: string | null;
  remember_me: number | boolean;
  ip: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ApiTokensTable {
  id: string;
  name: string;
  token_hash: string;
  permissions: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface PasswordTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'reset' | 'invite';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AuditLogTable {
  id: string;
  type: string;
  at: string;
  actor_id: string | null;
  actor_kind: string;
  ip: string | null;
  user_agent: string | null;
  target: string | null;
  details: unknown;
}

export interface InstanceTable {
  key: string;
  value: string;
}

export interface MediaTable {
  id: string;
  filename: string;
  original_filename: string;
  mime_type: string;
  size: number | string;
  sha256: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  title: string | null;
  variants: unknown;
  placeholder: string | null;
  dominant_color: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  /** The focal point (0–1 from the left and top); both null when unset. */
  focal_x: number | null;
  focal_y: number | null;
}

/** Image transforms rendered and stored so far, by their storage key (docs/media.md, "Image transforms"). */
export interface MediaTransformsTable {
  key: string;
  media_id: string;
  created_at: string;
}

/** Devices that signed in to an account before (SHA-256 of the `deviceId`), until `expires_at`. */
export interface KnownDevicesTable {
  user_id: string;
  device_hash: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface MfaMethodsTable {
  user_id: string;
  method: string;
  secret_enc: string | null;
  /** Last accepted TOTP time step (replay guard); 30 s steps fit an integer for centuries. */
  last_step: number | null;
  created_at: string;
  enabled_at: string | null;
}

export interface MfaBackupCodesTable {
  code_hash: string;
  user_id: string;
  created_at: string;
  used_at: string | null;
}

export interface MfaTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: string;
  expires_at: string;
  attempts: number;
  used_at: string | null;
  remember_me: number | boolean;
}

export interface MfaEmailCodesTable {
  user_id: string;
  purpose: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TrustedDevicesTable {
  id: string;
  user_id: string;
  device_hash: string;
  device_id_enc: string;
  name: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

export interface PasskeyCredentialsTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL answers it as a string. */
  counter: number | string;
  /** JSON list of transports. */
  transports: string;
  device_type: string;
  backed_up: number | boolean;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyChallengesTable {
  challenge: string;
  purpose: string;
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface IdpLinksTable {
  id: string;
  provider: string;
  issuer: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}

export interface IdpStatesTable {
  /** SHA-256 of the `state`, hex: the state itself is not kept. */
  state_hash: string;
  nonce: string;
  code_verifier: string;
  mode: string;
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface Tables {
  documents: DocumentsTable;
  document_revisions: DocumentRevisionsTable;
  document_refs: DocumentRefsTable;
  document_drafts: DocumentDraftsTable;
  document_draft_refs: DocumentRefsTable;
  document_draft_media: DocumentDraftMediaTable;
  document_counts: DocumentCountsTable;
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  api_tokens: ApiTokensTable;
  password_tokens: PasswordTokensTable;
  audit_log: AuditLogTable;
  media: MediaTable;
  media_transforms: MediaTransformsTable;
  document_media: DocumentMediaTable;
  known_devices: KnownDevicesTable;
  mfa_methods: MfaMethodsTable;
  mfa_backup_codes: MfaBackupCodesTable;
  mfa_tokens: MfaTokensTable;
  mfa_email_codes: MfaEmailCodesTable;
  trusted_devices: TrustedDevicesTable;
  passkey_credentials: PasskeyCredentialsTable;
  passkey_challenges: PasskeyChallengesTable;
  idp_links: IdpLinksTable;
  idp_states: IdpStatesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_device_codes: OAuthDeviceCodesTable;
  oauth_auth_codes: OAuthAuthCodesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  schedules: SchedulesTable;
  /** Instance-wide key/value rows: generated secrets, the first-boot claim, settings. */
  instance: InstanceTable;
}
