export type FontCategory = 'sans-serif' | 'serif' | 'display' | 'handwriting' | 'monospace';

/** A family of the font catalogue. */
export interface FontEntry {
  category: FontCategory;
  name: string;
  /** Lowercase underscore form, the font-family key ("open_sans"). */
  sane: string;
  /** 'italicFlag,weight': flag 0 or 1, weight 100 to 900 in steps of 100 ("0,400", "1,700"). */
  variants: string[];
}

export const DEFAULT_PICKER_FONT = 'Open Sans';
export const NEW_CARD_FONT = 'Roboto';
