/**
 * Group cards (contract section 14): one card that a whole group signs before it goes out. The
 * limits and the texts the signing page, the forms and the server share. Pure values and checks.
 */

/** Signatures one card takes at most. */
export const MAX_SIGNATURES = 100;
/** Addresses one card's purchaser may invite by e-mail, in all. */
export const MAX_INVITATIONS = 50;
/** A signature's message: plain text, like a card's message. */
export const MAX_SIGNATURE_MESSAGE = 500;
/** The one reminder to invited addresses that have not signed goes out this long before the deadline. */
export const SIGNING_REMINDER_BEFORE_MS = 24 * 60 * 60 * 1000;

export const SIGNING_TEXTS = {
  signed: 'Thank you: your message is on the card.',
  closed: 'Signing has closed.',
  full: `This card has ${MAX_SIGNATURES} signatures, as many as it can hold.`,
  withdrawn: 'This card was withdrawn.',
} as const;

/** Where a group card is signed. */
export const signingPath = (token: string): string => `/sign/${token}`;

/** A signing token as the shop makes them: 32 random bytes in base64url (43 characters). */
export const SIGNING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether a deadline fits a card: in the future, and no later than the moment the card goes out
 * (signatures are collected before the delivery). Returns the problem, or null when it fits.
 */
export function collectUntilProblem(collectUntil: Date, deliverAt: Date, now: Date): string | null {
  if (Number.isNaN(collectUntil.getTime())) return 'Give the date and time to collect signatures until (ISO 8601).';
  if (collectUntil.getTime() <= now.getTime()) return 'Collect signatures until a time in the future.';
  if (collectUntil.getTime() > deliverAt.getTime()) return 'Signatures must be collected before the card is delivered.';
  return null;
}
