/** The audit module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { audited, describeChanges, named, recordAudit, recordAuditMany, type AuditFact } from './audit.js';
