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

/** What the signing page suggests writing, by the card's occasion (words of its category and name). */
const SAMPLE_SIGNATURES: readonly (readonly [RegExp, string])[] = [
  [/christmas|xmas|noel|festive|holiday|season/i, 'Merry Christmas! Wishing you a wonderful holiday season.'],
  [/new year/i, 'Happy New Year! Here is to a wonderful year ahead.'],
  [/birthday/i, 'Happy birthday! It has been a joy to work with you.'],
  [/wedding|marri|engage/i, 'Congratulations! Wishing you both every happiness.'],
  [/anniversar/i, 'Happy anniversary! Here is to many more years.'],
  [/baby|new arrival|newborn/i, 'Congratulations on your little one!'],
  [/sympathy|condolence|loss|memor/i, 'Thinking of you, with love.'],
  [/get well|recover/i, 'Get well soon! We are all thinking of you.'],
  [/retire|farewell|leaving|goodbye|good luck|new job/i, 'Good luck with what comes next. We will miss you!'],
  [/graduat/i, 'Congratulations, graduate! We are so proud of you.'],
  [/thank/i, 'Thank you so much for everything you do.'],
  [/valentine|love/i, 'Thinking of you today and always.'],
  [/mother|mum|mom/i, "Happy Mother's Day! Thank you for everything."],
  [/father|dad/i, "Happy Father's Day! Thank you for everything."],
  [/easter/i, 'Happy Easter! Wishing you a lovely spring.'],
];
const ANY_OCCASION = 'Wishing you all the very best. It has been a joy to know you.';

/**
 * The sample message of a signing page: one that suits the card's occasion. The first of `occasions`
 * that names one decides (its category's names, nearest first, then the card's own name).
 */
export function sampleSignature(...occasions: readonly string[]): string {
  for (const occasion of occasions) {
    const fits = SAMPLE_SIGNATURES.find(([words]) => words.test(occasion));
    if (fits) return fits[1];
  }
  return ANY_OCCASION;
}

/** Where a group card is signed. */
export const signingPath = (token: string): string => `/sign/${token}`;

/** A signing token as the shop makes them: 32 random bytes in base64url (43 characters). */
export const SIGNING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Why a deadline does not fit a card (the storefront says each in the page's language). */
export type CollectUntilFault = 'invalid' | 'past' | 'afterDelivery';

/**
 * Whether a deadline fits a card: in the future, and no later than the moment the card goes out
 * (signatures are collected before the delivery). Returns what is wrong, or null when it fits.
 */
export function collectUntilFault(collectUntil: Date, deliverAt: Date, now: Date): CollectUntilFault | null {
  if (Number.isNaN(collectUntil.getTime())) return 'invalid';
  if (collectUntil.getTime() <= now.getTime()) return 'past';
  if (collectUntil.getTime() > deliverAt.getTime()) return 'afterDelivery';
  return null;
}

const COLLECT_UNTIL_PROBLEMS: Record<CollectUntilFault, string> = {
  invalid: 'Give the date and time to collect signatures until (ISO 8601).',
  past: 'Collect signatures until a time in the future.',
  afterDelivery: 'Signatures must be collected before the card is delivered.',
};

/** collectUntilFault in the shop's words (the API's answer), or null when the deadline fits. */
export function collectUntilProblem(collectUntil: Date, deliverAt: Date, now: Date): string | null {
  const fault = collectUntilFault(collectUntil, deliverAt, now);
  return fault && COLLECT_UNTIL_PROBLEMS[fault];
}
