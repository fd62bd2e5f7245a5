/**
 * The shop's English answers shown in the page's language: its input checks and its answers to
 * account requests, recognised by their exact English; English pages show them as they are, and an
 * answer not known is shown as the server wrote it.
 */
import { describe, expect, it } from 'vitest';
import { intlFor } from '../../web/src/i18n/page-intl';
import { inputMessage } from '../../web/src/i18n/input-messages';
import de from '../../web/src/i18n/messages/de.json';
import es from '../../web/src/i18n/messages/es.json';

const german = intlFor('de', de);
const english = intlFor('en', {});

describe('the shop answers in the page language', () => {
  it('says the input checks of the shared schemas in German, with their numbers', () => {
    expect(inputMessage(german, 'Please enter a valid e-mail address.')).toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    expect(inputMessage(german, 'Password must be at least 8 characters long.')).toBe('Das Passwort muss mindestens 8 Zeichen lang sein.');
    expect(inputMessage(german, 'The card has expired.')).toBe('Die Karte ist abgelaufen.');
    expect(inputMessage(intlFor('es', es), 'The name must be at most 100 characters.')).toBe('El nombre debe tener como máximo 100 caracteres.');
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
