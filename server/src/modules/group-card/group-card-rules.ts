import crypto from 'node:crypto';
import { badInput } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { collectUntilProblem, MAX_INVITATIONS, MAX_PERSON_NAME, MAX_SIGNATURE_MESSAGE, SIGNING_TOKEN_PATTERN } from '../../rules/index.js';
import { emailSchema, idempotencyKeySchema, singleLineSchema, z } from '../../rules/schemas.js';

/** Checks of what purchasers and signers send about group cards; each throws BAD_USER_INPUT on the field. */

/** What a card line asks for when it is to be a group card. */
export interface GroupCardRequest {
  collectUntil: Date;
  /** When the card goes out: its chosen day, or, when none was chosen, the moment signing closes. */
  deliverAt: Date;
}

/** A signature's message: plain text of 1 to 500 characters, line breaks kept, control characters removed. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

const signatureSchema = z.object({
  // Names are shown wherever the card is, e-mails included: one line, no control characters.
  name: singleLineSchema('Your name', MAX_PERSON_NAME, true, 'Please write your name.'),
  message: z.preprocess(
    (value) => asText(value).replace(/\r\n?/g, '\n').replace(CONTROL, '').trim(),
    z.string().min(1, 'Please write a message.').max(MAX_SIGNATURE_MESSAGE, `Your message must be at most ${MAX_SIGNATURE_MESSAGE} characters.`),
  ),
});

export interface SignatureInput {
  name: string;
  message: string;
}

/** A signature as sent: a single-line name and a plain-text message. */
export function cleanSignature(value: { name?: unknown; message?: unknown }): SignatureInput {
  return parseInput(signatureSchema, { name: value.name, message: value.message });
}

/** An optional idempotency key (16 to 100 letters, digits, "-" or "_"), or null. */
export function cleanSignatureKey(value: unknown, field = 'idempotencyKey'): string | null {
  if (value === undefined || value === null || value === '') return null;
  return parseInput(idempotencyKeySchema, value, field);
}

/** A date and time sent as ISO 8601 text (or a Date), else BAD_USER_INPUT on the field. */
export function cleanInstant(value: unknown, field: string): Date {
  const at = value instanceof Date ? value : typeof value === 'string' && value.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(value.trim()) ? new Date(value.trim()) : null;
  if (!at || Number.isNaN(at.getTime())) throw badInput('Give the date and time to collect signatures until (ISO 8601, e.g. 2026-12-20T18:00:00Z).', field);
  return at;
}

/**
 * The group card a card line asks for (`personalisation.groupCard: {collectUntil}`), checked against
 * the card's delivery: null when the line is an ordinary card. A group card is never sent "now": with
 * no later day chosen, it goes out when signing closes.
 */
export function groupCardRequest(personalisation: unknown, deliverAt: Date, now: Date, field: string): GroupCardRequest | null {
  const raw = personalisation && typeof personalisation === 'object' ? (personalisation as { groupCard?: unknown }).groupCard : undefined;
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badInput('groupCard takes {collectUntil}.', `${field}.groupCard`);
  const collectUntil = cleanInstant((raw as { collectUntil?: unknown }).collectUntil, `${field}.groupCard.collectUntil`);
  const delivery = deliverAt.getTime() <= now.getTime() ? collectUntil : deliverAt;
  const problem = collectUntilProblem(collectUntil, delivery, now);
  if (problem) throw badInput(problem, `${field}.groupCard.collectUntil`);
  return { collectUntil, deliverAt: delivery };
}

/** Up to MAX_INVITATIONS addresses, each a single e-mail address, each once (lower case). */
export function cleanInvitationEmails(value: unknown, field = 'emails'): string[] {
  if (!Array.isArray(value)) throw badInput('Give a list of e-mail addresses.', field);
  if (!value.length) throw badInput('Give at least one e-mail address.', field);
  if (value.length > MAX_INVITATIONS) throw badInput(`At most ${MAX_INVITATIONS} addresses can be invited.`, field);
  const emails = value.map((email, i) => parseInput(emailSchema, email, `${field}.${i}`));
  return [...new Set(emails)];
}

/** A signing token's shape; anything else cannot name a card. */
export const isSigningToken = (value: unknown): value is string => typeof value === 'string' && SIGNING_TOKEN_PATTERN.test(value);

/** 32 random bytes, base64url: a signing token or an edit token. */
export const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

/** An invitation's code in its link. */
export const randomCode = (): string => crypto.randomBytes(16).toString('base64url');

export const sha256 = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');

/** Whether `token` is the one whose hash is kept (in constant time). */
export function matchesHash(token: unknown, hash: string): boolean {
  if (typeof token !== 'string' || !token || token.length > 200) return false;
  return crypto.timingSafeEqual(Buffer.from(sha256(token), 'hex'), Buffer.from(hash, 'hex'));
}
