export { AUDIT_EVENTS, type AuditEvent } from '../../config/audit-events.js';
