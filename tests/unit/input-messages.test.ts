/**
 * The shop's English answers shown in the page's language: its input checks and its answers to
 * account requests, recognised by their exact English; English pages show them as they are, and an
 * answer not known is shown as the server wrote it.
 */
import { describe, expect, it } from 'vitest';
import { intlFor } from '../../web/src/i18n/page-intl';
import { inputMessage } from '../../web/src/i18n/input-messages';
import de from '../../web/src/i18n/messages/de.json';
import { MAX_OCCASION_LABEL, MAX_PASSWORD_LENGTH, MAX_PERSON_NAME } from '../../server/src/rules/index.js';
import { emailSchema, passwordSchema, paymentCardSchema, usernameSchema } from '../../server/src/rules/schemas.js';
import { cleanContact } from '../../server/src/modules/contacts/contact-rules.js';
import es from '../../web/src/i18n/messages/es.json';

const german = intlFor('de', de);

/** The first message a schema gives for a value, as the server sends it. */
const firstIssue = (schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) => schema.safeParse(value).error!.issues[0]!.message;
/** The message the server's contact check gives for a value. */
const contactIssue = (value: unknown) => {
  try {
    cleanContact(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the contact was accepted');
};
const english = intlFor('en', {});

describe('the shop answers in the page language', () => {
  it('says the input checks of the shared schemas in German, with their numbers', () => {
    expect(inputMessage(german, 'Please enter a valid e-mail address.')).toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    expect(inputMessage(german, 'Password must be at least 8 characters long.')).toBe('Das Passwort muss mindestens 8 Zeichen lang sein.');
    expect(inputMessage(german, 'The card has expired.')).toBe('Die Karte ist abgelaufen.');
    expect(inputMessage(intlFor('es', es), 'The name must be at most 100 characters.')).toBe('El nombre debe tener como máximo 100 caracteres.');
  });

  it('knows every message the server\'s own checks give on these forms (a reworded check would show English)', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const card = (fields: Record<string, string>) => firstIssue(paymentCardSchema(now), { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', ...fields });
    const serverTexts = [
      firstIssue(emailSchema, 'not an address'),
      firstIssue(usernameSchema, 'a'),
      firstIssue(passwordSchema, 'short'),
      firstIssue(passwordSchema, 'x'.repeat(MAX_PASSWORD_LENGTH + 1)),
      card({ cardNumber: '1234' }),
      card({ expiry: '13/30' }),
      card({ expiry: '01/20' }),
      card({ cvc: '1' }),
      contactIssue({ name: '', email: 'ada@example.com' }),
      contactIssue({ name: 'Ada\u0007', email: 'ada@example.com' }),
      contactIssue({ name: 'x'.repeat(MAX_PERSON_NAME + 1), email: 'ada@example.com' }),
      contactIssue({ name: 'Ada', email: 'ada@example.com', occasions: [{ label: '', month: 1, day: 1 }] }),
      contactIssue({ name: 'Ada', email: 'ada@example.com', occasions: [{ label: 'x'.repeat(MAX_OCCASION_LABEL + 1), month: 1, day: 1 }] }),
      contactIssue({ name: 'Ada', email: 'ada@example.com', occasions: [{ label: 'Birthday', month: 2, day: 30 }] }),
    ];
    const untranslated = serverTexts.map((text) => text.replace(/^[\w.]+: /, '')).filter((text) => inputMessage(german, text) === text);
    expect(untranslated).toEqual([]);
  });

  it('says an answer that names an address with that address', () => {
    expect(inputMessage(german, 'We have sent a link to new@example.com. Your address changes once you open it.')).toBe('Wir haben einen Link an new@example.com gesendet. Ihre Adresse ändert sich, sobald Sie ihn öffnen.');
    expect(inputMessage(german, 'Your address is now ada@example.com.')).toBe('Ihre Adresse lautet jetzt ada@example.com.');
  });

  it('leaves English as the server wrote it, and an unknown answer as it is', () => {
    for (const text of ['Please enter a valid e-mail address.', 'Password must be at least 8 characters long.', 'We have sent a new link to ada@example.com.']) expect(inputMessage(english, text)).toBe(text);
    expect(inputMessage(german, 'That username is already taken.')).toBe('That username is already taken.');
  });
});
