import { useIntl } from 'react-intl';

/** The hero image: an opened card with notes rising from it, drawn in SVG (no download needed). */
export function HeroArt() {
  const intl = useIntl();
  return (
    <svg className="hero-art" viewBox="0 0 1200 520" preserveAspectRatio="xMidYMid slice" role="img" aria-label={intl.formatMessage({ id: 'home.hero.art', defaultMessage: 'An open greeting card with music notes rising from it' })}>
      <defs>
        <linearGradient id="hero-sky" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2d1b4e" />
          <stop offset="0.55" stopColor="#7a2f6b" />
          <stop offset="1" stopColor="#e0735a" />
        </linearGradient>
        <linearGradient id="hero-card" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fff7ec" />
          <stop offset="1" stopColor="#f3dcc6" />
        </linearGradient>
        <radialGradient id="hero-glow" cx="0.75" cy="0.45" r="0.5">
          <stop offset="0" stopColor="#ffd58a" stopOpacity="0.55" />
          <stop offset="1" stopColor="#ffd58a" stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect width="1200" height="520" fill="url(#hero-sky)" />
      <rect width="1200" height="520" fill="url(#hero-glow)" />
      {[...Array(28)].map((_, i) => (
        <circle key={i} cx={(i * 137) % 1200} cy={(i * 71) % 300} r={(i % 3) + 1} fill="#fff" opacity={0.25 + (i % 4) * 0.12} />
      ))}
      <g transform="translate(760 150) rotate(-6)">
        <path d="M0 40 L170 0 L170 300 L0 340 Z" fill="#e9c9b0" />
        <path d="M170 0 L340 40 L340 340 L170 300 Z" fill="url(#hero-card)" />
        <circle cx="255" cy="140" r="54" fill="#f5498b" opacity="0.85" />
        <circle cx="225" cy="170" r="38" fill="#7961db" opacity="0.8" />
        <rect x="200" y="235" width="110" height="8" rx="4" fill="#c59a84" />
        <rect x="215" y="255" width="80" height="8" rx="4" fill="#d7b4a0" />
        <path d="M40 90 q40 -30 90 0" stroke="#b5836a" strokeWidth="6" fill="none" strokeLinecap="round" />
      </g>
      <g fill="#ffe9c7" opacity="0.9">
        <path d="M930 120 v-70 l40 -10 v60 a14 12 0 1 1 -6 -10 v-36 l-28 7 v49 a14 12 0 1 1 -6 -10z" />
        <path d="M1040 200 v-56 a12 10 0 1 1 -0 0 v0" />
        <path d="M860 90 v-44 l26 -6 v38 a11 9 0 1 1 -5 -8 v-22 l-16 4 v32 a11 9 0 1 1 -5 -8z" opacity="0.7" />
      </g>
    </svg>
  );
}
