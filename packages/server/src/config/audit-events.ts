/** Every kind of audit record Vellum writes (`security.auditLog.events` picks among them). */
export const AUDIT_EVENTS = [
  'login',
  'logout',
  'loginFailed',
  'passwordChange',
  'passwordReset',
  'userCreate',
  'userUpdate',
  'userDelete',
  'tokenCreate',
  'tokenRevoke',
  'settingsUpdate',
  'mfaEnable',
  'mfaDisable',
  'mfaReset',
  'passkeyAdd',
  'passkeyRemove',
  'idpLink',
  'idpUnlink',
  /** A user approved an OAuth client (docs/oauth2-authorization-code.md). */
  'oauthGrant',
] as const;

export type AuditEvent = (typeof AUDIT_EVENTS)[number];
