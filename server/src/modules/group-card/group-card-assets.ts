import fs from 'node:fs';

/**
 * What the group card's server-drawn parts carry besides their markup, from real files read once: the
 * signing page's styles and script, and the styles of a signed card's pages on the e-card page. The
 * build copies these files beside the compiled server (scripts/build.mjs).
 */
export const GROUP_CARD_FILES = ['server/src/modules/group-card/sign-page.css', 'server/src/modules/group-card/sign-page.script.js', 'server/src/modules/group-card/signature-pages.css'] as const;

const ROOT = new URL('../../../../', import.meta.url);
const read = (file: (typeof GROUP_CARD_FILES)[number]) => fs.readFileSync(new URL(file, ROOT), 'utf8');

/** Comments and runs of white space dropped: the pages travel to phones. */
const compact = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .trim();

/** The signing page's styles, inline in the page. */
export const SIGN_PAGE_CSS = compact(read(GROUP_CARD_FILES[0]));

/** The signing page's script, served at /sign/sign.js. */
export const SIGN_PAGE_SCRIPT = read(GROUP_CARD_FILES[1]);

/** The signature pages' styles, inline in a signed card's e-card page. */
export const SIGNATURE_PAGES_CSS = compact(read(GROUP_CARD_FILES[2]));
