/** Every kind of audit record Vellum writes (`security.auditLog.events` picks among them). */
export const AUDIT_EVENTS = [
  'login',
  'logout',
  'loginFailed',
  'passwordChange',
  'passwordReset',
  'passwordResetIssue',
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
  'oauthGrant',
  'oauthRevoke',
  'scheduleRun',
] as const;

export type AuditEvent = (typeof AUDIT_EVENTS)[number];
