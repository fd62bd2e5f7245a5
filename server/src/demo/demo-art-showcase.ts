import { between, escapeXml, flower, heart, notes, pick, pine, seedOf, seededRandom, snowflake, star, type Random } from './demo-art-motifs.js';
import { sceneCluster } from './demo-art-scenes.js';
import { SANS, SERIF, centredText, svgDocument, verticalGradient, wrapWords } from './demo-art.js';

/** Pictures of the album, the art collection and the blog. */

const ALBUM_SIZE = 800;

function vinyl(x: number, y: number, r: number, label: string, hole: string): string {
  const grooves = Array.from({ length: 12 }, (_, i) => `<circle cx="${x}" cy="${y}" r="${Math.round(r * (0.42 + i * 0.047))}" fill="none" stroke="#2c2c2c" stroke-width="1.2"/>`).join('');
  return `<g>
    <circle cx="${x}" cy="${y}" r="${r}" fill="#121212"/>${grooves}
    <path d="M${x - r * 0.7},${y - r * 0.45} A${r * 0.84},${r * 0.84} 0 0 1 ${x - r * 0.1},${y - r * 0.84}" stroke="#ffffff" stroke-width="${r * 0.08}" fill="none" opacity="0.07"/>
    <path d="M${x + r * 0.7},${y + r * 0.45} A${r * 0.84},${r * 0.84} 0 0 1 ${x + r * 0.1},${y + r * 0.84}" stroke="#ffffff" stroke-width="${r * 0.08}" fill="none" opacity="0.07"/>
    <circle cx="${x}" cy="${y}" r="${r * 0.34}" fill="${label}"/>
    <circle cx="${x}" cy="${y}" r="${r * 0.3}" fill="none" stroke="#ffffff" stroke-width="1.5" opacity="0.5"/>
    <circle cx="${x}" cy="${y}" r="${r * 0.035}" fill="${hole}"/>
  </g>`;
}

export function albumCover(title: string): string {
  const lines = wrapWords(title, 10);
  const body = `<rect width="${ALBUM_SIZE}" height="${ALBUM_SIZE}" fill="url(#bg)"/>
    ${vinyl(520, 400, 260, '#f4a261', '#2b2d42')}
    <rect x="70" y="130" width="420" height="540" rx="10" fill="url(#sleeve)"/>
    ${notes(150, 250, 70, '#ffffff', 0.35)}${notes(400, 650, 44, '#ffffff', 0.3)}${star(420, 200, 10, '#ffffff', 0.6)}${star(120, 560, 7, '#ffffff', 0.5)}
    ${centredText(lines, { x: 280, y: 360, maxWidth: 360, size: 56, lineHeight: 62, attrs: `font-family="${SERIF}" font-style="italic" font-weight="bold" fill="#ffffff"` })}
    <text x="280" y="${360 + lines.length * 62 + 10}" font-family="${SANS}" font-size="16" letter-spacing="5" text-anchor="middle" fill="#fff3e0">ART &amp; SONG CARDS</text>`;
  const defs = verticalGradient('bg', ['#2b2d42', '#5c3b6f']) + verticalGradient('sleeve', ['#e76f51', '#f4a261']);
  return svgDocument(ALBUM_SIZE, ALBUM_SIZE, body, defs);
}

/** The back of the album: its tracks with their lengths. */
export function albumBack(title: string, tracks: { title: string; seconds: number }[]): string {
  const rows = tracks
    .map((track, i) => {
      const y = 250 + i * 52;
      const length = `0:${String(Math.round(track.seconds)).padStart(2, '0')}`;
      return `<text x="110" y="${y}" font-family="${SANS}" font-size="22" fill="#2b2d42">${i + 1}.  ${escapeXml(track.title)}</text>
        <text x="690" y="${y}" font-family="${SANS}" font-size="20" text-anchor="end" fill="#8d6e63">${length}</text>
        <line x1="110" y1="${y + 18}" x2="690" y2="${y + 18}" stroke="#e0cfc0" stroke-width="1"/>`;
    })
    .join('');
  const body = `<rect width="${ALBUM_SIZE}" height="${ALBUM_SIZE}" fill="url(#bg)"/>
    <text x="400" y="150" font-family="${SERIF}" font-style="italic" font-weight="bold" font-size="40" text-anchor="middle" fill="#5c3b6f">${escapeXml(title)}</text>
    <line x1="300" y1="180" x2="500" y2="180" stroke="#e76f51" stroke-width="2"/>
    ${rows}
    ${notes(640, 720, 40, '#e76f51', 0.5)}`;
  return svgDocument(ALBUM_SIZE, ALBUM_SIZE, body, verticalGradient('bg', ['#fdf6ec', '#f6e7d8']));
}

/** Sound as colourful bars, for the album's gallery. */
export function albumWaves(): string {
  const colors = ['#ef476f', '#f78c6b', '#ffd166', '#06d6a0', '#118ab2', '#8e7dbe'];
  const bars = Array.from({ length: 30 }, (_, i) => {
    const height = 60 + 220 * Math.abs(Math.sin(i * 0.45) * Math.cos(i * 0.17));
    const x = 70 + i * 22;
    return `<rect x="${x}" y="${400 - height / 2}" width="14" height="${height}" rx="7" fill="${colors[Math.floor(i / 5) % colors.length]}"/>`;
  }).join('');
  const body = `<rect width="${ALBUM_SIZE}" height="${ALBUM_SIZE}" fill="url(#bg)"/>${bars}
    ${notes(140, 170, 60, '#ffffff', 0.4)}${notes(600, 660, 70, '#ffffff', 0.35)}${notes(650, 180, 40, '#ffffff', 0.3)}`;
  return svgDocument(ALBUM_SIZE, ALBUM_SIZE, body, verticalGradient('bg', ['#1d2440', '#3d2c5e']));
}

/** The record out of its sleeve. */
export function albumRecord(): string {
  const body = `<rect width="${ALBUM_SIZE}" height="${ALBUM_SIZE}" fill="url(#bg)"/>
    <circle cx="412" cy="412" r="300" fill="#000000" opacity="0.12"/>
    ${vinyl(400, 400, 300, '#e76f51', '#f6e7d8')}
    <text x="400" y="372" font-family="${SANS}" font-size="16" letter-spacing="4" text-anchor="middle" fill="#ffffff">ART &amp; SONG</text>
    <text x="400" y="444" font-family="${SANS}" font-size="13" letter-spacing="3" text-anchor="middle" fill="#ffffff" opacity="0.8">SIDE A</text>`;
  return svgDocument(ALBUM_SIZE, ALBUM_SIZE, body, verticalGradient('bg', ['#f6e7d8', '#e9c9b1']));
}

export type Season = 'spring' | 'summer' | 'autumn' | 'winter';
export const SEASONS: readonly Season[] = ['spring', 'summer', 'autumn', 'winter'];

const LANDSCAPE = { w: 800, h: 600 };

const SEASON_LOOK: Record<Season, { sky: [string, string]; sun: string; far: string; near: string; crowns: string[] }> = {
  spring: { sky: ['#cdeffd', '#fdf2f8'], sun: '#fff6b7', far: '#b7e4c7', near: '#74c69d', crowns: ['#ffc8dd', '#ffafcc', '#fde2e4'] },
  summer: { sky: ['#74c0fc', '#fff3c4'], sun: '#ffd43b', far: '#8fbc5a', near: '#4f772d', crowns: ['#2d6a4f', '#40916c', '#52b788'] },
  autumn: { sky: ['#f8c291', '#fdebd0'], sun: '#f77f00', far: '#d4a373', near: '#bc6c25', crowns: ['#e85d04', '#dc2f02', '#f48c06'] },
  winter: { sky: ['#9bb7d4', '#eef4fa'], sun: '#ffffff', far: '#dfe7f0', near: '#f8fbff', crowns: [] },
};

/** A landscape of a season: the body only, with ids prefixed so that several fit in one picture. */
function landscapeBody(season: Season): { body: string; defs: string } {
  const look = SEASON_LOOK[season];
  const random = seededRandom(seedOf(`season:${season}`));
  const { w, h } = LANDSCAPE;
  const id = `sky-${season}`;
  let trees = '';
  for (let i = 0; i < 7; i++) {
    const x = 60 + i * 115 + between(random, -20, 20);
    const y = h * 0.8 + between(random, -10, 25);
    const size = between(random, 60, 95);
    if (season === 'winter') trees += pine(x, y, size * 1.6, { dark: '#2f5d50', light: '#3f7a68' });
    else {
      const crown = look.crowns[i % look.crowns.length];
      trees += `<rect x="${x - 5}" y="${y - size * 0.7}" width="10" height="${size * 0.7}" fill="#6b4a33"/>
        <circle cx="${x}" cy="${y - size * 0.85}" r="${size * 0.42}" fill="${crown}"/>
        <circle cx="${x - size * 0.28}" cy="${y - size * 0.7}" r="${size * 0.3}" fill="${crown}"/>
        <circle cx="${x + size * 0.28}" cy="${y - size * 0.72}" r="${size * 0.3}" fill="${crown}"/>`;
    }
  }
  const extras = seasonDetails(season, random);
  const body = `<rect width="${w}" height="${h}" fill="url(#${id})"/>
    <circle cx="620" cy="130" r="62" fill="${look.sun}" opacity="${season === 'winter' ? 0.8 : 1}"/>
    <path d="M0,${h * 0.62} Q${w * 0.25},${h * 0.45} ${w * 0.5},${h * 0.6} T${w},${h * 0.55} L${w},${h} L0,${h} Z" fill="${look.far}"/>
    <path d="M0,${h * 0.78} Q${w * 0.3},${h * 0.68} ${w * 0.6},${h * 0.77} T${w},${h * 0.74} L${w},${h} L0,${h} Z" fill="${look.near}"/>
    ${trees}${extras}`;
  return { body, defs: verticalGradient(id, look.sky) };
}

/** What makes a season: blossoms, a blazing sun, falling leaves or snow. */
function seasonDetails(season: Season, random: Random): string {
  const { w, h } = LANDSCAPE;
  const look = SEASON_LOOK[season];
  switch (season) {
    case 'spring':
      return Array.from({ length: 12 }, () => flower(random() * w, h * 0.9 + random() * h * 0.08, 9, { petal: '#ffffff', center: '#ffd43b' }, 5)).join('');
    case 'summer': {
      const rays = Array.from({ length: 12 }, (_, i) => {
        const a = (Math.PI * 2 * i) / 12;
        return `<line x1="${620 + Math.cos(a) * 80}" y1="${130 + Math.sin(a) * 80}" x2="${620 + Math.cos(a) * 105}" y2="${130 + Math.sin(a) * 105}"/>`;
      });
      return `<g stroke="${look.sun}" stroke-width="4" stroke-linecap="round" opacity="0.6">${rays.join('')}</g>`;
    }
    case 'autumn':
      return Array.from({ length: 18 }, () => {
        const x = Math.round(random() * w);
        const y = Math.round(random() * h * 0.8);
        return `<ellipse cx="${x}" cy="${y}" rx="7" ry="3.5" fill="${pick(random, look.crowns)}" transform="rotate(${Math.round(random() * 180)} ${x} ${y})" opacity="0.85"/>`;
      }).join('');
    case 'winter':
      return Array.from({ length: 22 }, () => snowflake(random() * w, random() * h * 0.75, between(random, 5, 12), '#ffffff', 0.85)).join('');
  }
}

export function seasonPicture(season: Season): string {
  const { body, defs } = landscapeBody(season);
  return svgDocument(LANDSCAPE.w, LANDSCAPE.h, body, defs);
}

/** The four seasons in a grid, with the collection's name in the middle. */
export function seasonsCollage(title: string): string {
  const { w, h } = LANDSCAPE;
  const gap = 8;
  const tile = { w: (w - gap * 3) / 2, h: (h - gap * 3) / 2 };
  let defs = '';
  const tiles = SEASONS.map((season, i) => {
    const part = landscapeBody(season);
    defs += part.defs;
    const x = gap + (i % 2) * (tile.w + gap);
    const y = gap + Math.floor(i / 2) * (tile.h + gap);
    return `<svg x="${x}" y="${y}" width="${tile.w}" height="${tile.h}" viewBox="0 0 ${w} ${h}" preserveAspectRatio="xMidYMid slice">${part.body}</svg>`;
  }).join('');
  const body = `<rect width="${w}" height="${h}" fill="#fffdf8"/>${tiles}
    <rect x="${w / 2 - 240}" y="${h / 2 - 50}" width="480" height="100" rx="14" fill="#fffdf8" opacity="0.94"/>
    ${centredText([title], { x: w / 2, y: h / 2 + 14, maxWidth: 430, size: 40, lineHeight: 0, attrs: `font-family="${SERIF}" font-style="italic" font-weight="bold" fill="#3d405b"` })}`;
  return svgDocument(w, h, body, defs);
}

const BLOG = { w: 1200, h: 630 };

/** A greeting card standing at an angle, for the blog pictures. */
function tiltedCard(x: number, y: number, angle: number, fill: string, art: string): string {
  return `<g transform="rotate(${angle} ${x} ${y})">
    <rect x="${x - 128}" y="${y - 168}" width="256" height="336" rx="10" fill="#000000" opacity="0.12" transform="translate(8 10)"/>
    <rect x="${x - 128}" y="${y - 168}" width="256" height="336" rx="10" fill="#ffffff"/>
    <rect x="${x - 114}" y="${y - 154}" width="228" height="308" rx="6" fill="${fill}"/>
    ${art}
  </g>`;
}

/** The welcome post: three cards fanned out among notes. */
export function blogWelcome(): string {
  const random = seededRandom(seedOf('blog:welcome'));
  const body = `<rect width="${BLOG.w}" height="${BLOG.h}" fill="url(#bg)"/>
    ${notes(170, 190, 70, '#8e7dbe', 0.5)}${notes(1010, 520, 60, '#e76f51', 0.45)}${notes(1040, 170, 44, '#2a9d8f', 0.45)}${notes(220, 520, 40, '#e63946', 0.4)}
    ${tiltedCard(420, 330, -12, '#fff1e6', sceneCluster('balloons', 420, 320, 200, random))}
    ${tiltedCard(780, 330, 11, '#eef7ff', sceneCluster('snowflakes', 780, 330, 220, random))}
    ${tiltedCard(600, 310, 0, '#fff0f3', sceneCluster('hearts', 600, 300, 220, random))}`;
  return svgDocument(BLOG.w, BLOG.h, body, verticalGradient('bg', ['#fde2e4', '#e2ece9']));
}

/** The post of ideas: an envelope with a card peeking out, sealed with a heart. */
export function blogEnvelope(): string {
  const cx = 600;
  const top = 250;
  const body = `<rect width="${BLOG.w}" height="${BLOG.h}" fill="url(#bg)"/>
    ${flower(180, 470, 46, { petal: '#f28482', center: '#f9dc5c' }, 6, 140)}${flower(270, 500, 34, { petal: '#b8a1e3', center: '#f9dc5c' }, 5, 110)}
    ${flower(1010, 470, 44, { petal: '#f6bd60', center: '#f28482' }, 7, 140)}${flower(920, 510, 30, { petal: '#84a59d', center: '#f9dc5c' }, 5, 100)}
    ${notes(300, 180, 54, '#3d405b', 0.35)}${notes(880, 160, 48, '#3d405b', 0.35)}
    <rect x="${cx - 150}" y="${top - 150}" width="300" height="250" rx="8" fill="#ffffff"/>
    ${sceneCluster('flowers', cx, top - 40, 200, seededRandom(seedOf('blog:ideas')))}
    <rect x="${cx - 230}" y="${top}" width="460" height="290" rx="10" fill="#f4e3d7"/>
    <path d="M${cx - 230},${top + 10} L${cx},${top + 170} L${cx + 230},${top + 10} L${cx + 230},${top + 290} L${cx - 230},${top + 290} Z" fill="#ead2c0"/>
    <path d="M${cx - 230},${top + 290} L${cx},${top + 130} L${cx + 230},${top + 290} Z" fill="#f1dccd"/>
    ${heart(cx, top + 160, 70, '#c9184a')}`;
  return svgDocument(BLOG.w, BLOG.h, body, verticalGradient('bg', ['#e3f2e1', '#fffbea']));
}
