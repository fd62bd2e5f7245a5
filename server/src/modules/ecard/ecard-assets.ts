import fs from 'node:fs';

/**
 * What the e-card page carries besides its markup, from real files read once. Its styles: the card
 * as every screen of the shop draws it (web/src/common/card/opening-card.css, which the site's
 * previews import), then the page around it (ecard-page.css). Its one script (ecard-page.script.js).
 * The build copies these files beside the compiled server (scripts/build.mjs).
 */
export const ECARD_FILES = ['web/src/common/card/opening-card.css', 'server/src/modules/ecard/ecard-page.css', 'server/src/modules/ecard/ecard-page.script.js'] as const;

const ROOT = new URL('../../../../', import.meta.url);
const read = (file: (typeof ECARD_FILES)[number]) => fs.readFileSync(new URL(file, ROOT), 'utf8');

/** Comments and runs of white space dropped: the page travels to a phone on every opening. */
const compact = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .trim();

/** The page's styles, put inline in each page: the first paint needs no second request. */
export const ECARD_CSS = [read(ECARD_FILES[0]), read(ECARD_FILES[1])].map(compact).join('\n');

/** The page's script, served at /ecards/ecard.js. */
export const ECARD_SCRIPT = read(ECARD_FILES[2]);

/**
 * The styles of one card's font: the family from the font service, then a copy installed on the
 * phone (by its two usual local names), then the page's serif; text shows at once and swaps in.
 * Font names are letters, digits and spaces (the catalogue checks it, the caller keeps them so).
 */
export const fontCss = (family: string): string =>
  family
    ? `@font-face { font-family: '${family} Local'; src: local('${family}'), local('${family.replace(/ /g, '')}-Regular'); font-display: swap; }
.card-book .message p { font-family: '${family}', '${family} Local', Georgia, 'Times New Roman', serif; }`
    : '';
