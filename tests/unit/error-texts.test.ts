import { describe, expect, it } from 'vitest';
import { AppError, conflict, notFound, said } from '../../server/src/core/errors.js';

/**
 * An error a shopper can meet says a message of the server's catalogue (contract section 20): its
 * `message` is the English it always said, and `messageIn` says it in the request's language.
 */
const CLOSED = { id: 'sign.closed', defaultMessage: 'Signing has closed.' };
const FULL = { id: 'error.contacts.full', defaultMessage: 'Your address book is full: it holds at most {max, number} contacts.' };
const UNTIL = { id: 'error.membership.giftEnds', defaultMessage: 'A membership given as a present ends by itself on {until}: there is nothing to cancel.' };

describe('an error said from the catalogue', () => {
  it('keeps its English as its message, and says it in each language', () => {
    const error = conflict(CLOSED);
    expect(error.message).toBe('Signing has closed.');
    expect(error.code).toBe('CONFLICT');
    expect(error.messageIn('en')).toBe('Signing has closed.');
    expect(error.messageIn('de')).toBe('Die Frist zum Unterschreiben ist abgelaufen.');
    expect(error.messageIn('fr')).toBe('Les signatures sont closes.');
  });

  it('fills its values, numbers as the language writes them and the rest by the language', () => {
    const full = conflict(said(FULL, { max: 1000 }));
    expect(full.message).toBe('Your address book is full: it holds at most 1,000 contacts.');
    expect(full.messageIn('de')).toBe('Ihr Adressbuch ist voll: Es fasst höchstens 1.000 Kontakte.');
    const ends = conflict(said(UNTIL, { until: (locale) => (locale === 'en' ? 'March 1, 2027' : '1. März 2027') }));
    expect(ends.message).toBe('A membership given as a present ends by itself on March 1, 2027: there is nothing to cancel.');
    expect(ends.messageIn('de')).toBe('Eine geschenkte Mitgliedschaft endet von selbst am 1. März 2027: Es gibt nichts zu kündigen.');
  });

  it('leaves a plain English error as it is in every language', () => {
    const error = notFound('Order');
    expect(error.message).toBe('Order not found');
    expect(error.messageIn('de')).toBe('Order not found');
    expect(new AppError('BAD_USER_INPUT', 'The request is not valid.').messageIn('es')).toBe('The request is not valid.');
  });
});
