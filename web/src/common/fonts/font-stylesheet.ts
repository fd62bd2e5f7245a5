const FONT_SERVICE = 'https://fonts.googleapis.com/css2';

/** The font service's stylesheet of a family: spaces as plus signs, swap display; `text` subsets it. */
export function fontStylesheetUrl(family: string, text?: string): string {
  const url = `${FONT_SERVICE}?family=${family.trim().split(/\s+/).map(encodeURIComponent).join('+')}&display=swap`;
  return text ? `${url}&text=${encodeURIComponent(text)}` : url;
}

const loaded = new Set<string>();

/** Adds the family's stylesheet to the page once. */
export function loadFontStylesheet(family: string, text?: string): void {
  const href = fontStylesheetUrl(family, text);
  if (loaded.has(href) || typeof document === 'undefined') return;
  loaded.add(href);
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.appendChild(link);
}
