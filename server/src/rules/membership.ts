/** Memberships' clock: the shop's rules that the console, the pages and the renewals share. */

/** How long a declined renewal keeps a membership's benefits before it lapses (contract section 18). */
export const MEMBERSHIP_GRACE_MS = 7 * 86_400_000;
/** How long before a yearly plan renews its member is reminded. */
export const MEMBERSHIP_REMINDER_MS = 7 * 86_400_000;
