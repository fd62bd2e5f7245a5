import { describe, expect, it } from 'vitest';
import { readTheme, storeTheme, themeFromCookie } from '../../web/src/common/theme.js';

const storage = (value: string | null) => {
  let stored = value;
  return { getItem: () => stored, setItem: (_: string, v: string) => void (stored = v) };
};

describe('the theme', () => {
  it('is dark by default and for anything unknown', () => {
    expect(readTheme(storage(null))).toBe('dark');
    expect(readTheme(storage('purple'))).toBe('dark');
    expect(readTheme(undefined)).toBe('dark');
  });

  it('keeps light once chosen, under the key "theme"', () => {
    const s = storage(null);
    const keys: string[] = [];
    storeTheme('light', { setItem: (k, v) => (keys.push(k), s.setItem(k, v)) });
    expect(keys).toEqual(['theme']);
    expect(readTheme(s)).toBe('light');
  });

  it('follows the theme cookie (what the server drew) when the browser has no choice stored, and the stored choice otherwise', () => {
    expect(readTheme(storage(null), 'a=1; theme=light')).toBe('light');
    expect(readTheme(undefined, 'theme=light')).toBe('light');
    expect(readTheme(storage(null), 'theme=dark')).toBe('dark');
    expect(readTheme(storage('dark'), 'theme=light')).toBe('dark');
    expect(readTheme(storage('light'), '')).toBe('light');
  });

  it('is read from the theme cookie as the server sees it: light only when asked for', () => {
    expect(themeFromCookie('theme=light')).toBe('light');
    expect(themeFromCookie('a=1; theme=light; b=2')).toBe('light');
    expect(themeFromCookie('theme=dark')).toBe('dark');
    expect(themeFromCookie('mytheme=light')).toBe('dark');
    expect(themeFromCookie(undefined)).toBe('dark');
  });
});
