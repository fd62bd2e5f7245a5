import sharp from 'sharp';
import { MessageLocation } from '../modules/catalogue/e-greeting-card.entity.js';
import { escapeXml, seedOf, seededRandom } from './demo-art-motifs.js';
import { PALETTES, sceneArt, sceneCluster, type CardScene } from './demo-art-scenes.js';

/** Card pages are portrait 3:4, the proportion the storefront shows them in. */
export const CARD_WIDTH = 600;
export const CARD_HEIGHT = 800;

/** Families every system is likely to have, then the generic family, so text always renders. */
export const SERIF = "'DejaVu Serif', 'Liberation Serif', Georgia, serif";
export const SANS = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** What a card's pictures are drawn from. */
export interface CardArt {
  scene: CardScene;
  /** The greeting printed large on the cover. */
  headline: string;
  /** The card's name, printed small under the greeting. */
  title: string;
}

/** An SVG picture as a small WebP. */
export function renderPicture(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).webp({ quality: 82, effort: 3 }).toBuffer();
}

export function svgDocument(width: number, height: number, body: string, defs = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;
}

export function verticalGradient(id: string, [top, bottom]: readonly [string, string]): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

/** Splits a text into lines of at most `max` characters, at spaces. */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && (last + ' ' + word).length <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * Lines of centred text, each sized down so that it fits `maxWidth`. There are no text metrics here,
 * so the width is estimated from a bold serif's average glyph width, on the generous side.
 */
export function centredText(lines: string[], options: { x: number; y: number; maxWidth: number; size: number; lineHeight: number; attrs: string }): string {
  return lines
    .map((line, i) => {
      const size = Math.min(options.size, Math.floor(options.maxWidth / (line.length * 0.66)));
      return `<text x="${options.x}" y="${options.y + i * options.lineHeight}" font-size="${size}" text-anchor="middle" ${options.attrs}>${escapeXml(line)}</text>`;
    })
    .join('');
}

export function cardCover(art: CardArt): string {
  const p = PALETTES[art.scene];
  const random = seededRandom(seedOf(`cover:${art.title}`));
  const lines = wrapWords(art.headline, 16);
  const lineHeight = 48;
  const top = lines.length > 1 ? 652 : 680;
  const body = `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#sky)"/>
    ${sceneArt(art.scene, { x: 0, y: 0, w: CARD_WIDTH, h: 600 }, random)}
    <rect x="48" y="590" width="504" height="170" rx="18" fill="#fffdf8" opacity="0.93"/>
    <rect x="58" y="600" width="484" height="150" rx="12" fill="none" stroke="${p.accent}" stroke-width="1.5" opacity="0.5"/>
    ${centredText(lines, { x: 300, y: top, maxWidth: 440, size: 54, lineHeight, attrs: `font-family="${SERIF}" font-style="italic" font-weight="bold" fill="${p.ink}"` })}
    <text x="300" y="${top + (lines.length - 1) * lineHeight + 38}" font-family="${SANS}" font-size="15" letter-spacing="4" text-anchor="middle" fill="${p.accent}">${escapeXml(art.title.toUpperCase())}</text>`;
  return svgDocument(CARD_WIDTH, CARD_HEIGHT, body, verticalGradient('sky', p.sky));
}

const CELL_OF: Record<MessageLocation, [number, number]> = {
  [MessageLocation.TOP_LEFT]: [0, 0],
  [MessageLocation.TOP_CENTER]: [1, 0],
  [MessageLocation.TOP_RIGHT]: [2, 0],
  [MessageLocation.MIDDLE_LEFT]: [0, 1],
  [MessageLocation.MIDDLE_CENTER]: [1, 1],
  [MessageLocation.MIDDLE_RIGHT]: [2, 1],
  [MessageLocation.BOTTOM_LEFT]: [0, 2],
  [MessageLocation.BOTTOM_RIGHT]: [2, 2],
};

/**
 * The cells of a 3×3 grid the inside page decorates: those two cells away from the message (its
 * corners first), or the four corners around a centred message, so the text sits on calm paper.
 */
export function decoratedCells(location: MessageLocation): [number, number][] {
  const [mc, mr] = CELL_OF[location];
  const cells: [number, number][] = [];
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cells.push([c, r]);
  const isCorner = ([c, r]: [number, number]) => c !== 1 && r !== 1;
  const far = cells.filter(([c, r]) => Math.max(Math.abs(c - mc), Math.abs(r - mr)) >= 2);
  if (!far.length) return cells.filter(isCorner);
  const corners = far.filter(isCorner);
  return corners.length >= 3 ? corners : [...corners, ...far.filter((cell) => !isCorner(cell))].slice(0, 3);
}

/** The inside page the message is written on. */
export function cardInside(art: CardArt, location: MessageLocation): string {
  const p = PALETTES[art.scene];
  const random = seededRandom(seedOf(`inside:${art.title}`));
  const cellW = CARD_WIDTH / 3;
  const cellH = CARD_HEIGHT / 3;
  const clusters = decoratedCells(location)
    .map(([c, r]) => sceneCluster(art.scene, cellW * (c + 0.5), cellH * (r + 0.5), 175, random))
    .join('');
  const body = `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#paper)"/>
    <rect x="18" y="18" width="564" height="764" rx="10" fill="none" stroke="${p.accent}" stroke-width="2" opacity="0.35"/>
    <rect x="28" y="28" width="544" height="744" rx="6" fill="none" stroke="${p.accent}" stroke-width="1" opacity="0.2"/>
    ${clusters}`;
  return svgDocument(CARD_WIDTH, CARD_HEIGHT, body, verticalGradient('paper', p.paper));
}

export function cardBack(art: CardArt): string {
  const p = PALETTES[art.scene];
  const random = seededRandom(seedOf(`back:${art.title}`));
  const body = `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#paper)"/>
    ${sceneCluster(art.scene, 300, 330, 190, random)}
    <text x="300" y="520" font-family="${SERIF}" font-style="italic" font-size="30" text-anchor="middle" fill="${p.ink}">Art &amp; Song Cards</text>
    <text x="300" y="554" font-family="${SANS}" font-size="14" letter-spacing="1" text-anchor="middle" fill="${p.accent}">Beautiful greetings without the wait</text>
    <line x1="250" y1="590" x2="350" y2="590" stroke="${p.accent}" stroke-width="1.5" opacity="0.6"/>
    <text x="300" y="630" font-family="${SANS}" font-size="12" letter-spacing="3" text-anchor="middle" fill="${p.ink}" opacity="0.65">${escapeXml(art.title.toUpperCase())}</text>`;
  return svgDocument(CARD_WIDTH, CARD_HEIGHT, body, verticalGradient('paper', p.paper));
}

/** A full-page illustration without text, drawn afresh from `variant`. */
export function cardIllustration(art: CardArt, variant: string): string {
  const p = PALETTES[art.scene];
  const random = seededRandom(seedOf(`${variant}:${art.title}`));
  const body = `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#sky)"/>${sceneArt(art.scene, { x: 0, y: 60, w: CARD_WIDTH, h: 700 }, random)}`;
  return svgDocument(CARD_WIDTH, CARD_HEIGHT, body, verticalGradient('sky', p.sky));
}

/** The scene's motif repeated like wrapping paper. */
export function cardPattern(art: CardArt): string {
  const p = PALETTES[art.scene];
  const random = seededRandom(seedOf(`pattern:${art.title}`));
  let tiles = '';
  for (let row = 0; row < 7; row++) {
    for (let col = 0; col < 4; col++) {
      tiles += sceneCluster(art.scene, col * 200 + (row % 2 ? 0 : 100), row * 130 + 40, 110, random);
    }
  }
  const body = `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#paper)"/>${tiles}`;
  return svgDocument(CARD_WIDTH, CARD_HEIGHT, body, verticalGradient('paper', p.paper));
}
