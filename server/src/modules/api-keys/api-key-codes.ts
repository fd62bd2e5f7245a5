import crypto from 'node:crypto';
import { API_KEY_PREFIX } from '../../core/context.js';
import { API_KEY_PATTERN } from '../../rules/index.js';

/** Letters and digits: a key is copied into configuration files and headers, never typed. */
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_LENGTH = 32;

/** A new key: `ask_` and 32 symbols drawn uniformly by the system's random source (about 190 bits). */
export function newApiKey(): string {
  let key = API_KEY_PREFIX;
  for (let i = 0; i < KEY_LENGTH; i++) key += KEY_ALPHABET[crypto.randomInt(KEY_ALPHABET.length)];
  return key;
}

/** Whether a bearer token has the shape of a key (anything else cannot be one, and is not looked up). */
export const isWellFormedKey = (token: string): boolean => token.length === API_KEY_PREFIX.length + KEY_LENGTH && API_KEY_PATTERN.test(token);

/** What is kept of a key: its SHA-256 (190 bits of chance cannot be walked back from a digest, so no slow hash is needed). */
export const keyDigest = (key: string): string => crypto.hash('sha256', key);

/** What is shown of a key once it is kept: its last four characters. */
export const keyLast4 = (key: string): string => key.slice(-4);
