import { balloon, between, cake, confetti, firework, flower, heart, pick, pine, snowflake, star, type Random } from './demo-art-motifs.js';

/** The illustration a card is drawn with. */
export type CardScene = 'balloons' | 'cake' | 'pines' | 'snowflakes' | 'fireworks' | 'hearts' | 'flowers';

export interface Palette {
  /** The cover's background, top to bottom. */
  sky: [string, string];
  /** The inside and back pages, top to bottom: light enough to write on. */
  paper: [string, string];
  ink: string;
  accent: string;
  colors: readonly string[];
}

export const PALETTES: Record<CardScene, Palette> = {
  balloons: { sky: ['#bde0fe', '#fff1e6'], paper: ['#fffdf8', '#fdf0e6'], ink: '#3d2c5e', accent: '#e76f51', colors: ['#e63946', '#f4a261', '#2a9d8f', '#8e7dbe', '#ffbe0b', '#3a86ff'] },
  cake: { sky: ['#ffd6e0', '#fff4e0'], paper: ['#fffaf5', '#ffeef2'], ink: '#5b2a3c', accent: '#d1495b', colors: ['#ef476f', '#ffd166', '#06d6a0', '#118ab2', '#c77dff'] },
  pines: { sky: ['#1b3358', '#4f6d99'], paper: ['#fbfcfe', '#e8f0f8'], ink: '#1b3358', accent: '#b23a48', colors: ['#d62828', '#f6c453', '#ffffff', '#4cc9f0'] },
  snowflakes: { sky: ['#a9d6f5', '#eef7ff'], paper: ['#fbfdff', '#e9f4fc'], ink: '#1d4e89', accent: '#3a7ca5', colors: ['#ffffff', '#d0ebff', '#8ecae6'] },
  fireworks: { sky: ['#0b1836', '#3c1f5c'], paper: ['#fbfaff', '#ecebf8'], ink: '#241a4a', accent: '#c9a227', colors: ['#ffd166', '#ef476f', '#4cc9f0', '#b8f2e6', '#f72585'] },
  hearts: { sky: ['#ffd1dc', '#fff0f3'], paper: ['#fffafb', '#fdecef'], ink: '#7a1f3d', accent: '#c9184a', colors: ['#c9184a', '#ff4d6d', '#ff8fa3', '#ffb3c1'] },
  flowers: { sky: ['#e3f2e1', '#fffbea'], paper: ['#fffef9', '#f1f7ec'], ink: '#31572c', accent: '#e07a5f', colors: ['#f28482', '#f6bd60', '#b8a1e3', '#84a59d', '#ff9f1c'] },
};

const CAKE = { cake: '#f4a6b8', top: '#fcd5b5', frosting: '#fffaf4', accent: '#d1495b' };

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The full illustration of a scene inside a box (covers and large pictures). The background is the
 * caller's; this draws the subject.
 */
export function sceneArt(scene: CardScene, box: Box, random: Random): string {
  const p = PALETTES[scene];
  const { x, y, w, h } = box;
  switch (scene) {
    case 'balloons': {
      const spots = [
        [0.22, 0.3], [0.42, 0.2], [0.62, 0.27], [0.8, 0.18], [0.32, 0.5], [0.55, 0.46], [0.75, 0.44],
      ];
      return confetti(random, box, 40, p.colors) + spots.map(([fx, fy], i) => balloon(x + fx * w, y + fy * h, w * between(random, 0.075, 0.1), p.colors[i % p.colors.length], random)).join('');
    }
    case 'cake': {
      const bunting = Array.from({ length: 9 }, (_, i) => {
        const bx = x + (w / 9) * i + w / 18;
        const by = y + h * 0.1 + Math.sin((i / 8) * Math.PI) * h * 0.06;
        return `<polygon points="${bx - w / 22},${by} ${bx + w / 22},${by} ${bx},${by + h * 0.09}" fill="${p.colors[i % p.colors.length]}"/>`;
      }).join('');
      const rope = `<path d="M${x},${y + h * 0.1} Q${x + w / 2},${y + h * 0.22} ${x + w},${y + h * 0.1}" stroke="#8d6e63" stroke-width="2" fill="none"/>`;
      return rope + bunting + confetti(random, { x, y: y + h * 0.25, w, h: h * 0.35 }, 30, p.colors) + cake(x + w / 2, y + h * 0.92, w * 0.66, CAKE);
    }
    case 'pines': {
      const flakes = Array.from({ length: 40 }, () => `<circle cx="${x + random() * w}" cy="${y + random() * h * 0.8}" r="${between(random, 1.5, 3.5)}" fill="#ffffff" opacity="${between(random, 0.5, 0.95)}"/>`).join('');
      const ground = `<path d="M${x},${y + h * 0.82} Q${x + w * 0.35},${y + h * 0.72} ${x + w * 0.7},${y + h * 0.8} T${x + w},${y + h * 0.78} L${x + w},${y + h * 1.4} L${x},${y + h * 1.4} Z" fill="#f4f8fc"/>`;
      const moon = `<circle cx="${x + w * 0.8}" cy="${y + h * 0.16}" r="${w * 0.07}" fill="#fdf6d8"/><circle cx="${x + w * 0.8}" cy="${y + h * 0.16}" r="${w * 0.12}" fill="#fdf6d8" opacity="0.15"/>`;
      return (
        moon +
        flakes +
        ground +
        pine(x + w * 0.2, y + h * 0.86, h * 0.42, { dark: '#1f5f4a', light: '#2d7a5f' }) +
        pine(x + w * 0.8, y + h * 0.84, h * 0.36, { dark: '#1f5f4a', light: '#2d7a5f' }) +
        pine(x + w * 0.5, y + h * 0.9, h * 0.62, { dark: '#236b52', light: '#34896a' }, p.colors, random)
      );
    }
    case 'snowflakes': {
      const small = Array.from({ length: 16 }, () => snowflake(x + random() * w, y + random() * h, between(random, 10, 26), pick(random, p.colors), between(random, 0.6, 1))).join('');
      return small + snowflake(x + w / 2, y + h * 0.5, Math.min(w, h) * 0.3, '#ffffff') + snowflake(x + w / 2, y + h * 0.5, Math.min(w, h) * 0.12, p.accent, 0.7);
    }
    case 'fireworks': {
      const stars = Array.from({ length: 30 }, () => star(x + random() * w, y + random() * h * 0.8, between(random, 1.5, 3.5), '#ffffff', between(random, 0.4, 0.9))).join('');
      const bursts = [
        [0.3, 0.3, 0.22], [0.72, 0.22, 0.18], [0.6, 0.55, 0.14], [0.18, 0.62, 0.1],
      ].map(([fx, fy, fr], i) => firework(x + fx * w, y + fy * h, fr * w, p.colors[i % p.colors.length], p.colors[(i + 3) % p.colors.length])).join('');
      let skyline = '';
      for (let bx = x; bx < x + w; ) {
        const bw = between(random, w * 0.06, w * 0.12);
        const bh = between(random, h * 0.08, h * 0.22);
        skyline += `<rect x="${bx}" y="${y + h - bh}" width="${bw + 1}" height="${bh + h}" fill="#0a0f24"/>`;
        bx += bw;
      }
      return stars + bursts + skyline;
    }
    case 'hearts': {
      const floating = Array.from({ length: 22 }, () => heart(x + random() * w, y + random() * h, between(random, 18, 44), pick(random, p.colors), between(random, 0.35, 0.8), between(random, -25, 25))).join('');
      const cx = x + w / 2;
      const cy = y + h * 0.55;
      const shine = `<ellipse cx="${cx - w * 0.12}" cy="${cy - w * 0.1}" rx="${w * 0.05}" ry="${w * 0.085}" fill="#ffffff" opacity="0.3" transform="rotate(35 ${cx - w * 0.12} ${cy - w * 0.1})"/>`;
      return floating + heart(cx + 6, cy + 6, w * 0.52, '#7a1f3d', 0.15) + heart(cx, cy, w * 0.52, p.accent) + shine;
    }
    case 'flowers': {
      const heads = [
        [0.5, 0.38, 0.11], [0.3, 0.5, 0.09], [0.7, 0.5, 0.095], [0.4, 0.3, 0.07], [0.62, 0.28, 0.075], [0.2, 0.68, 0.07], [0.8, 0.7, 0.07],
      ];
      return heads
        .map(([fx, fy, fr], i) => flower(x + fx * w, y + fy * h, fr * w, { petal: p.colors[i % p.colors.length], center: '#f9dc5c' }, 5 + (i % 3), h * (0.98 - fy)))
        .join('');
    }
  }
}

/** A small cluster of a scene's motif, for the corners of an inside page and for patterns. */
export function sceneCluster(scene: CardScene, cx: number, cy: number, size: number, random: Random): string {
  const p = PALETTES[scene];
  switch (scene) {
    case 'balloons':
      return [-0.3, 0, 0.3].map((dx, i) => balloon(cx + dx * size, cy - size * 0.15 + (i % 2) * size * 0.12, size * 0.16, p.colors[(i * 2) % p.colors.length], random)).join('');
    case 'cake':
      return cake(cx, cy + size * 0.32, size * 0.62, CAKE) + confetti(random, { x: cx - size / 2, y: cy - size / 2, w: size, h: size * 0.4 }, 8, p.colors);
    case 'pines':
      return pine(cx - size * 0.2, cy + size * 0.35, size * 0.6, { dark: '#1f5f4a', light: '#2d7a5f' }, p.colors, random) + pine(cx + size * 0.22, cy + size * 0.35, size * 0.42, { dark: '#236b52', light: '#34896a' });
    case 'snowflakes':
      return snowflake(cx, cy, size * 0.28, p.accent, 0.8) + snowflake(cx + size * 0.32, cy - size * 0.28, size * 0.12, p.ink, 0.5) + snowflake(cx - size * 0.3, cy + size * 0.3, size * 0.1, p.ink, 0.5);
    case 'fireworks':
      return firework(cx, cy, size * 0.3, p.colors[1], p.colors[0]) + star(cx + size * 0.35, cy - size * 0.3, 6, p.accent) + star(cx - size * 0.35, cy + size * 0.3, 4, p.colors[2]);
    case 'hearts':
      return heart(cx, cy, size * 0.4, p.colors[0], 0.9, -8) + heart(cx + size * 0.3, cy - size * 0.25, size * 0.2, p.colors[2], 0.9, 12) + heart(cx - size * 0.28, cy + size * 0.22, size * 0.16, p.colors[1], 0.8, -15);
    case 'flowers':
      return flower(cx - size * 0.15, cy - size * 0.05, size * 0.2, { petal: p.colors[0], center: '#f9dc5c' }, 6, size * 0.4) + flower(cx + size * 0.2, cy + size * 0.05, size * 0.16, { petal: p.colors[2], center: '#f9dc5c' }, 5, size * 0.3);
  }
}
