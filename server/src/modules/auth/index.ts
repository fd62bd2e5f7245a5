/** The auth module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { type AuthService, type SignedIn } from './auth.service.js';
export { AuthPayload } from './auth.types.js';
export { checkPassword, normaliseEmail, normaliseUsername } from './auth.validation.js';
export { accountUsesEmail, createStaffAccount, lockedStaffMember, removeStaffAccount, setStaffRole, staffMembers } from './staff-accounts.js';
export { Role, User } from './user.entity.js';
export { accountTimeZone, setAccountTimeZone } from './account-time-zone.js';
export { customerEventData } from './customer-events.js';
