/**
 * Small SVG motifs the demo pictures are composed of. Each returns an SVG fragment drawn around a
 * point at a size; randomness comes from a seeded generator, so every start draws the same pictures.
 */

export type Random = () => number;

/** A seeded pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable seed from a text (FNV-1a). */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export const between = (random: Random, min: number, max: number) => min + random() * (max - min);
export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const n = (value: number) => Math.round(value * 10) / 10;

export function balloon(x: number, y: number, r: number, color: string, random: Random): string {
  const sway = between(random, -0.6, 0.6) * r;
  return `<g>
    <path d="M${n(x)},${n(y + r * 1.25)} q${n(sway)},${n(r * 0.9)} 0,${n(r * 1.7)} t${n(-sway)},${n(r * 1.6)}" fill="none" stroke="#7a6f66" stroke-width="1.5" opacity="0.7"/>
    <ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r)}" ry="${n(r * 1.18)}" fill="${color}"/>
    <path d="M${n(x - r * 0.14)},${n(y + r * 1.3)} L${n(x + r * 0.14)},${n(y + r * 1.3)} L${n(x)},${n(y + r * 1.14)} Z" fill="${color}"/>
    <ellipse cx="${n(x - r * 0.38)}" cy="${n(y - r * 0.42)}" rx="${n(r * 0.16)}" ry="${n(r * 0.3)}" fill="#fff" opacity="0.45" transform="rotate(-28 ${n(x - r * 0.38)} ${n(y - r * 0.42)})"/>
  </g>`;
}

/** A two-tier cake on a plate; `y` is the plate. */
export function cake(x: number, y: number, w: number, colors: { cake: string; top: string; frosting: string; accent: string }): string {
  const tierColor = [colors.cake, colors.top];
  const tier = (level: number, cx: number, bottom: number, width: number, height: number) => {
    const left = cx - width / 2;
    const top = bottom - height;
    const drips = Array.from({ length: 6 }, (_, i) => {
      const dx = left + (width / 6) * (i + 0.5);
      return `Q${n(dx - width / 24)},${n(top + height * (i % 2 ? 0.42 : 0.3))} ${n(dx)},${n(top + height * 0.22)}`;
    }).join(' ');
    return `<rect x="${n(left)}" y="${n(top)}" width="${n(width)}" height="${n(height)}" rx="${n(height * 0.12)}" fill="${tierColor[level]}"/>
      <path d="M${n(left)},${n(top + height * 0.12)} Q${n(left)},${n(top)} ${n(left + 8)},${n(top)} L${n(left + width - 8)},${n(top)} Q${n(left + width)},${n(top)} ${n(left + width)},${n(top + height * 0.12)} L${n(left + width)},${n(top + height * 0.22)} ${drips} L${n(left)},${n(top + height * 0.22)} Z" fill="${colors.frosting}"/>
      <rect x="${n(left)}" y="${n(bottom - height * 0.34)}" width="${n(width)}" height="${n(height * 0.08)}" fill="${colors.accent}" opacity="0.8"/>`;
  };
  const lower = w * 0.34;
  const upper = w * 0.28;
  const candles = [-0.2, 0, 0.2].map((offset) => {
    const cx = x + offset * w;
    const top = y - lower - upper - w * 0.16;
    return `<rect x="${n(cx - 4)}" y="${n(top)}" width="8" height="${n(w * 0.16)}" rx="2" fill="#fffaf0" stroke="${colors.accent}" stroke-width="1.5"/>
      <path d="M${n(cx)},${n(top - 22)} C${n(cx + 8)},${n(top - 10)} ${n(cx + 6)},${n(top - 2)} ${n(cx)},${n(top - 2)} C${n(cx - 6)},${n(top - 2)} ${n(cx - 8)},${n(top - 10)} ${n(cx)},${n(top - 22)} Z" fill="#ffb703"/>
      <ellipse cx="${n(cx)}" cy="${n(top - 8)}" rx="2.5" ry="5" fill="#fff3b0"/>`;
  });
  return `<g>
    <ellipse cx="${n(x)}" cy="${n(y + 4)}" rx="${n(w * 0.62)}" ry="${n(w * 0.07)}" fill="#ffffff" opacity="0.85"/>
    ${tier(0, x, y, w, lower)}
    ${tier(1, x, y - lower, w * 0.7, upper)}
    ${candles.join('')}
  </g>`;
}

export function snowflake(x: number, y: number, r: number, color: string, opacity = 1): string {
  const arm = `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x)}" y2="${n(y - r)}"/>
    <polyline points="${n(x - r * 0.24)},${n(y - r * 0.8)} ${n(x)},${n(y - r * 0.56)} ${n(x + r * 0.24)},${n(y - r * 0.8)}"/>
    <polyline points="${n(x - r * 0.14)},${n(y - r * 0.98)} ${n(x)},${n(y - r * 0.84)} ${n(x + r * 0.14)},${n(y - r * 0.98)}"/>`;
  const arms = [0, 60, 120, 180, 240, 300].map((a) => `<g transform="rotate(${a} ${n(x)} ${n(y)})">${arm}</g>`).join('');
  return `<g stroke="${color}" stroke-width="${n(Math.max(1.2, r * 0.09))}" stroke-linecap="round" fill="none" opacity="${opacity}">${arms}</g>`;
}

export function star(x: number, y: number, r: number, color: string, opacity = 1): string {
  const points = Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    return `${n(x + radius * Math.cos(angle))},${n(y + radius * Math.sin(angle))}`;
  });
  return `<polygon points="${points.join(' ')}" fill="${color}" opacity="${opacity}"/>`;
}

/** A snowy fir; `y` is the foot of the trunk. */
export function pine(x: number, y: number, h: number, colors: { dark: string; light: string }, ornaments: readonly string[] = [], random?: Random): string {
  const w = h * 0.62;
  const layers = [0, 1, 2].map((i) => {
    const bottom = y - h * 0.12 - i * h * 0.26;
    const width = w * (1 - i * 0.24);
    const top = bottom - h * 0.42;
    return `<polygon points="${n(x - width / 2)},${n(bottom)} ${n(x + width / 2)},${n(bottom)} ${n(x)},${n(top)}" fill="${i % 2 ? colors.light : colors.dark}"/>
      <path d="M${n(x - width / 2)},${n(bottom)} Q${n(x - width / 4)},${n(bottom - h * 0.05)} ${n(x)},${n(bottom - h * 0.02)} T${n(x + width / 2)},${n(bottom)} Z" fill="#ffffff" opacity="0.9"/>`;
  });
  const balls = ornaments.length && random
    ? Array.from({ length: 7 }, (_, i) => {
        const level = between(random, 0.18, 0.78);
        const half = (w / 2) * (1 - level) * 0.8;
        return `<circle cx="${n(x + between(random, -half, half))}" cy="${n(y - h * level)}" r="${n(h * 0.028)}" fill="${ornaments[i % ornaments.length]}"/>`;
      }).join('')
    : '';
  return `<g>
    <rect x="${n(x - h * 0.05)}" y="${n(y - h * 0.14)}" width="${n(h * 0.1)}" height="${n(h * 0.14)}" fill="#6b4a33"/>
    ${layers.join('')}${balls}
    ${ornaments.length ? star(x, y - h * 0.9, h * 0.07, '#f6c453') : ''}
  </g>`;
}

export function firework(x: number, y: number, r: number, color: string, glow: string): string {
  const rays = (count: number, inner: number, outer: number, stroke: string, width: number, offset: number) =>
    Array.from({ length: count }, (_, i) => {
      const a = (2 * Math.PI * i) / count + offset;
      const c = Math.cos(a);
      const s = Math.sin(a);
      return `<line x1="${n(x + c * inner)}" y1="${n(y + s * inner)}" x2="${n(x + c * outer)}" y2="${n(y + s * outer)}" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round"/>
        <circle cx="${n(x + c * outer * 1.1)}" cy="${n(y + s * outer * 1.1)}" r="${n(width * 0.9)}" fill="${stroke}"/>`;
    }).join('');
  return `<g>
    <circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.9)}" fill="${glow}" opacity="0.09"/>
    ${rays(18, r * 0.3, r, color, 3, 0)}
    ${rays(12, r * 0.14, r * 0.55, glow, 2, 0.13)}
  </g>`;
}

export function heart(x: number, y: number, size: number, color: string, opacity = 1, angle = 0): string {
  return `<path transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)}) scale(${n(size / 100)})" d="M0,35 C-20,20 -50,5 -50,-18 C-50,-38 -34,-50 -18,-50 C-8,-50 -2,-44 0,-36 C2,-44 8,-50 18,-50 C34,-50 50,-38 50,-18 C50,5 20,20 0,35 Z" fill="${color}" opacity="${opacity}"/>`;
}

/** A flower head with `petals` petals; `stem` draws its stem and a leaf down to `stem` px below. */
export function flower(x: number, y: number, r: number, colors: { petal: string; center: string; leaf?: string }, petals = 6, stem = 0): string {
  const petal = Array.from(
    { length: petals },
    (_, i) => `<ellipse cx="${n(x)}" cy="${n(y - r * 0.52)}" rx="${n(r * 0.3)}" ry="${n(r * 0.52)}" transform="rotate(${n((360 / petals) * i)} ${n(x)} ${n(y)})"/>`,
  ).join('');
  const leaf = colors.leaf ?? '#5f8d4e';
  const stalk = stem
    ? `<path d="M${n(x)},${n(y)} q${n(r * 0.3)},${n(stem * 0.5)} 0,${n(stem)}" stroke="${leaf}" stroke-width="${n(Math.max(2, r * 0.12))}" fill="none"/>
       <ellipse cx="${n(x + r * 0.45)}" cy="${n(y + stem * 0.55)}" rx="${n(r * 0.45)}" ry="${n(r * 0.18)}" fill="${leaf}" transform="rotate(-30 ${n(x + r * 0.45)} ${n(y + stem * 0.55)})"/>`
    : '';
  return `<g>${stalk}<g fill="${colors.petal}">${petal}</g><circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.3)}" fill="${colors.center}"/></g>`;
}

/** Two beamed eighth notes. */
export function notes(x: number, y: number, size: number, color: string, opacity = 1): string {
  const head = (cx: number, cy: number) => `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(size * 0.2)}" ry="${n(size * 0.14)}" transform="rotate(-22 ${n(cx)} ${n(cy)})"/>`;
  const stemX = (cx: number) => cx + size * 0.17;
  return `<g fill="${color}" opacity="${opacity}">
    ${head(x, y)}${head(x + size * 0.6, y - size * 0.1)}
    <rect x="${n(stemX(x) - 1.5)}" y="${n(y - size)}" width="3" height="${n(size)}"/>
    <rect x="${n(stemX(x + size * 0.6) - 1.5)}" y="${n(y - size * 1.1)}" width="3" height="${n(size)}"/>
    <polygon points="${n(stemX(x) - 1.5)},${n(y - size)} ${n(stemX(x + size * 0.6) + 1.5)},${n(y - size * 1.1)} ${n(stemX(x + size * 0.6) + 1.5)},${n(y - size * 0.92)} ${n(stemX(x) - 1.5)},${n(y - size * 0.82)}"/>
  </g>`;
}

/** Confetti strewn over a box. */
export function confetti(random: Random, box: { x: number; y: number; w: number; h: number }, count: number, colors: readonly string[]): string {
  return Array.from({ length: count }, () => {
    const x = box.x + random() * box.w;
    const y = box.y + random() * box.h;
    const color = pick(random, colors);
    return random() < 0.5
      ? `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(random, 2.5, 5))}" fill="${color}" opacity="0.85"/>`
      : `<rect x="${n(x)}" y="${n(y)}" width="5" height="11" rx="1.5" fill="${color}" opacity="0.85" transform="rotate(${Math.round(random() * 180)} ${n(x)} ${n(y)})"/>`;
  }).join('');
}
