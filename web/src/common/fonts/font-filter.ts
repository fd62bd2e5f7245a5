import type { FontEntry } from './font-types';

/** The fonts whose name contains the search text, ignoring case. */
export function filterFonts(fonts: readonly FontEntry[], search: string): FontEntry[] {
  const needle = search.trim().toLowerCase();
  return needle ? fonts.filter((font) => font.name.toLowerCase().includes(needle)) : [...fonts];
}
