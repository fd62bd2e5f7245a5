import { describe, expect, it } from 'vitest';
import { FONT_CATALOGUE, saneName } from '../../web/src/common/fonts/font-catalogue.js';
import { filterFonts } from '../../web/src/common/fonts/font-filter.js';
import { fontStylesheetUrl } from '../../web/src/common/fonts/font-stylesheet.js';

describe('the font catalogue', () => {
  it('holds at least 100 families in the five categories, each name once', () => {
    expect(FONT_CATALOGUE.length).toBeGreaterThanOrEqual(100);
    expect(new Set(FONT_CATALOGUE.map((f) => f.category))).toEqual(new Set(['sans-serif', 'serif', 'display', 'handwriting', 'monospace']));
    expect(new Set(FONT_CATALOGUE.map((f) => f.name)).size).toBe(FONT_CATALOGUE.length);
    for (const name of ['Open Sans', 'Roboto']) expect(FONT_CATALOGUE.some((f) => f.name === name)).toBe(true);
  });

  it('gives every family its sane key and variants as italicFlag,weight', () => {
    for (const font of FONT_CATALOGUE) {
      expect(font.sane).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
      expect(font.variants.length).toBeGreaterThan(0);
      for (const variant of font.variants) expect(variant).toMatch(/^[01],[1-9]00$/);
    }
    expect(saneName('Open Sans')).toBe('open_sans');
    expect(FONT_CATALOGUE.find((f) => f.name === 'Lato')!.variants).toContain('1,700');
  });
});

describe('the font filter', () => {
  it('matches a substring of the name, ignoring case', () => {
    expect(filterFonts(FONT_CATALOGUE, 'SANS').map((f) => f.name)).toEqual(expect.arrayContaining(['Open Sans', 'Nunito Sans', 'Josefin Sans', 'PT Sans']));
    expect(filterFonts(FONT_CATALOGUE, 'sans').every((f) => f.name.toLowerCase().includes('sans'))).toBe(true);
    expect(filterFonts(FONT_CATALOGUE, '  mono ').length).toBeGreaterThan(3);
    expect(filterFonts(FONT_CATALOGUE, '')).toHaveLength(FONT_CATALOGUE.length);
    expect(filterFonts(FONT_CATALOGUE, 'zzzz')).toEqual([]);
  });
});

describe('the font stylesheet', () => {
  it('asks the font service for the family with plus signs for spaces and swap display', () => {
    expect(fontStylesheetUrl('Open Sans')).toBe('https://fonts.googleapis.com/css2?family=Open+Sans&display=swap');
    expect(fontStylesheetUrl('Press Start 2P', 'Hi')).toBe('https://fonts.googleapis.com/css2?family=Press+Start+2P&display=swap&text=Hi');
  });
});
