/** E-mail settings read with more than a default: DKIM signing and the unopened card's reminder. */
import crypto from 'node:crypto';

export interface DkimConfig {
  domainName: string;
  keySelector: string;
  /** The private key, PEM. */
  privateKey: string;
}

/**
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together (all three or none). The key is the PEM
 * text (its line breaks may be written as `\n`, as one-line environment files need) and must be a
 * private key Node can read; otherwise the process does not start.
 */
export function parseDkim(env: NodeJS.ProcessEnv): DkimConfig | undefined {
  const domainName = env.DKIM_DOMAIN?.trim() ?? '';
  const keySelector = env.DKIM_SELECTOR?.trim() ?? '';
  const privateKey = (env.DKIM_PRIVATE_KEY ?? '').replace(/\\n/g, '\n').trim();
  const given = [domainName, keySelector, privateKey].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3) throw new Error('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together: set all three or none');
  if (!/^[a-z0-9.-]+$/i.test(domainName)) throw new Error(`DKIM_DOMAIN must be a domain name, got "${domainName}"`);
  if (!/^[a-z0-9._-]+$/i.test(keySelector)) throw new Error(`DKIM_SELECTOR must be a DNS label, got "${keySelector}"`);
  try {
    crypto.createPrivateKey(privateKey);
  } catch {
    throw new Error('DKIM_PRIVATE_KEY must be a private key in PEM ("-----BEGIN PRIVATE KEY-----…"; line breaks may be written as \\n)');
  }
  return { domainName: domainName.toLowerCase(), keySelector, privateKey: `${privateKey}\n` };
}

/** REMINDER_AFTER_HOURS: hours (fractions allowed) after delivery; 0 turns reminders off; default 72. */
export function parseReminderHours(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return 72;
  const hours = Number(value);
  if (!Number.isFinite(hours) || hours < 0) throw new Error(`REMINDER_AFTER_HOURS must be a number of hours (0 turns reminders off), got "${raw}"`);
  return hours;
}
