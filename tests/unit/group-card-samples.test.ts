import { describe, expect, it } from 'vitest';
import { sampleSignature } from '../../server/src/rules/group-card.js';

describe("the signing page's sample message", () => {
  it("suits the card's occasion: its category first, then the card's name", () => {
    expect(sampleSignature('Christmas', 'Seasons', 'Snowy Evening')).toBe('Merry Christmas! Wishing you a wonderful holiday season.');
    expect(sampleSignature('Birthday', 'Balloon Birthday')).toBe('Happy birthday! It has been a joy to work with you.');
    // A Christmas card filed under "Cards": the name says what it is for.
    expect(sampleSignature('Cards', 'Christmas Carols')).toBe('Merry Christmas! Wishing you a wonderful holiday season.');
    // The nearest category decides over the one above it.
    expect(sampleSignature('Retirement', 'Thank you', 'Cards')).toBe('Good luck with what comes next. We will miss you!');
    expect(sampleSignature('Weddings', 'Rings')).toBe('Congratulations! Wishing you both every happiness.');
    expect(sampleSignature('Sympathy')).toBe('Thinking of you, with love.');
  });

  it('says something that fits any card when nothing names an occasion', () => {
    expect(sampleSignature('Cards', 'Blue Horizon')).toBe('Wishing you all the very best. It has been a joy to know you.');
    expect(sampleSignature()).toBe('Wishing you all the very best. It has been a joy to know you.');
  });
});
