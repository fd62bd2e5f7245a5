import crypto from 'node:crypto';

/** Capitals and digits without the look-alikes (0/O, 1/I/L, 5/S, 2/Z, 8/B): 25 symbols. */
export const CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';
export const CODE_LENGTH = 16;

/** A new code: 16 symbols drawn uniformly by the system's random source (about 74 bits). */
export function newGiftCardCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

/** A code as people write it (any case, dashes, spaces) as the shop keeps it; null when it cannot be one. */
export function normaliseGiftCardCode(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== CODE_LENGTH) return null;
  for (const symbol of code) if (!CODE_ALPHABET.includes(symbol)) return null;
  return code;
}

/** What is kept of a code: its SHA-256 (the code has about 74 bits of chance, so a digest cannot be walked back). */
export const codeDigest = (code: string): string => crypto.hash('sha256', code);

/** A code as it is shown once and printed: four groups of four. */
export const formatGiftCardCode = (code: string): string => code.match(/.{1,4}/g)!.join('-');
