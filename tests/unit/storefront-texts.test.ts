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

describe('songs as shoppers see them', () => {
  it('by title: the friendly name without its audio extension', async () => {
    const { songTitle } = await import('../../server/src/rules/card.js');
    expect(songTitle('Happy Birthday.wav')).toBe('Happy Birthday');
    expect(songTitle('Jingle Bells.MP3')).toBe('Jingle Bells');
    expect(songTitle('v1.2 final.ogg')).toBe('v1.2 final');
    expect(songTitle('Mr. Blue Sky')).toBe('Mr. Blue Sky');
    expect(songTitle('.wav')).toBe('.wav');
  });

  it('lengths and positions as m:ss, h:mm:ss past an hour, 0:00 when unknown', async () => {
    const { playTime } = await import('../../server/src/rules/card.js');
    expect([0, 5.9, 65, 600, 3725, NaN, Infinity, -1].map(playTime)).toEqual(['0:00', '0:05', '1:05', '10:00', '1:02:05', '0:00', '0:00', '0:00']);
  });
});
