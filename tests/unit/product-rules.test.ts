import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/src/core/errors.js';
import { cleanFontName, cleanTags, idList, parseMessageLocation, parsePrice } from '../../server/src/modules/catalogue/product-rules.js';

const fails = (fn: () => unknown, field: string, message?: RegExp) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('BAD_USER_INPUT');
    expect((error as AppError).field).toBe(field);
    if (message) expect((error as AppError).message).toMatch(message);
    return;
  }
  throw new Error('expected a BAD_USER_INPUT error');
};

describe('prices', () => {
  it.each([
    ['19.99', '19.99'],
    [19.99, '19.99'],
    ['19.9', '19.90'],
    ['19', '19.00'],
    [5, '5.00'],
    ['0.01', '0.01'],
    ['007.5', '7.50'],
    ['12.340', '12.34'],
    [' 3.5 ', '3.50'],
    ['.5', '0.50'],
    ['1000000', '1000000.00'],
  ])('%j is stored as %j', (input, stored) => expect(parsePrice(input)).toBe(stored));

  it.each([
    [0, /greater than zero/],
    ['0.00', /greater than zero/],
    [-1, /greater than zero/],
    ['-0.5', /greater than zero/],
    ['abc', /a number/],
    ['', /a number/],
    [null, /a number/],
    [Number.NaN, /a number/],
    [Infinity, /a number/],
    ['1e3', /a number/],
    ['1.999', /two decimals/],
    [0.1 + 0.2, /two decimals/],
    ['1000000.01', /at most/],
    ['99999999999', /at most/],
  ])('%j is refused', (input, message) => fails(() => parsePrice(input), 'price', message));
});

describe('tags', () => {
  it('are trimmed, emptied ones dropped and repeats removed ignoring case (first spelling kept)', () => {
    expect(cleanTags([' Spring ', 'flowers', 'SPRING', '', '  ', 'Flowers', 'two  words'])).toEqual(['Spring', 'flowers', 'two words']);
    expect(cleanTags(undefined)).toEqual([]);
  });

  it('must be texts, short enough and not too many', () => {
    fails(() => cleanTags('spring'), 'tags');
    fails(() => cleanTags([1]), 'tags');
    fails(() => cleanTags(['x'.repeat(51)]), 'tags');
    fails(() => cleanTags(Array.from({ length: 31 }, (_, i) => `t${i}`)), 'tags');
  });
});

describe('card fields', () => {
  it('read the placements by value or by label', () => {
    expect(parseMessageLocation('bottom-right', 'f')).toBe('bottom-right');
    expect(parseMessageLocation('Top Left', 'f')).toBe('top-left');
    expect(parseMessageLocation('MIDDLE_CENTER', 'f')).toBe('middle-center');
    fails(() => parseMessageLocation('centre', 'f'), 'f');
  });

  it('take font family names only', () => {
    expect(cleanFontName('  Open   Sans ', 'f')).toBe('Open Sans');
    expect(cleanFontName('', 'f')).toBeNull();
    fails(() => cleanFontName("Roboto'); x", 'f'), 'f');
    fails(() => cleanFontName('<b>', 'f'), 'f');
  });

  it('id lists drop repeats and refuse what is not an id', () => {
    expect(idList([3, '4', 3], 'ids', 5)).toEqual([3, 4]);
    fails(() => idList([1, 2, 3], 'ids', 2), 'ids');
    fails(() => idList([0], 'ids', 2), 'ids');
    fails(() => idList('1,2', 'ids', 2), 'ids');
  });
});
