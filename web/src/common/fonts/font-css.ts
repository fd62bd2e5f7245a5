import { FONT_CATALOGUE } from './font-catalogue';
import type { FontEntry } from './font-types';

/** What the browser falls back to while a family loads, or when the font service cannot be reached. */
const FALLBACK: Record<FontEntry['category'], string> = {
  'sans-serif': 'sans-serif',
  serif: 'serif',
  display: 'sans-serif',
  handwriting: 'cursive',
  monospace: 'monospace',
};

export const fontFamilyCss = (font: Pick<FontEntry, 'name' | 'category'>) => `'${font.name}', ${FALLBACK[font.category]}`;

const BY_NAME = new Map(FONT_CATALOGUE.map((font) => [font.name.toLowerCase(), font]));

/** The catalogue entry of a family name (any case), if it is one of ours. */
export const fontByName = (name: string | null | undefined): FontEntry | undefined => (name ? BY_NAME.get(name.toLowerCase()) : undefined);
