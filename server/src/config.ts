import path from 'node:path';

/** Everything the process reads from its environment, read once. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  production: boolean;
  logLevel: string;
  jwtSecret?: string;
  tokenTtlSeconds: number;
  admin: { username: string; email: string; password?: string };
  graphqlIntrospection: boolean;
  maxUploadMb: number;
  /** Login throttling: failures allowed per username and per client address in the window. */
  loginLimits: { perUsername: number; perAddress: number; windowSeconds: number };
  trustProxy: boolean;
  /** The shop's address as recipients reach it, for links in e-mails. */
  publicUrl: string;
  /** SMTP server for e-mail; without it, e-mails are written to `DATA_DIR/outbox` as .eml files. */
  smtpUrl?: string;
  mailFrom: string;
  /** How often the e-mail worker looks for due cards and receipts. */
  deliveryPollSeconds: number;
  /** The demo catalogue on first start: 'auto' seeds it into the embedded database only. */
  seedDemo: 'auto' | boolean;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: intEnv(env, 'PORT', 4000),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    production: env.NODE_ENV === 'production',
    logLevel: env.LOG_LEVEL || 'info',
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: parseTtl(env.TOKEN_TTL),
    admin: {
      username: env.ADMIN_USERNAME || 'admin',
      email: env.ADMIN_EMAIL || 'admin@example.com',
      password: env.ADMIN_PASSWORD || undefined,
    },
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION !== '0',
    maxUploadMb: intEnv(env, 'MAX_UPLOAD_MB', 25),
    loginLimits: {
      perUsername: intEnv(env, 'LOGIN_MAX_FAILURES_PER_USER', 10),
      perAddress: intEnv(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 50),
      windowSeconds: 15 * 60,
    },
    trustProxy: env.TRUST_PROXY === '1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${intEnv(env, 'PORT', 4000)}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Art & Song Cards <cards@artsongcards.example>',
    deliveryPollSeconds: intEnv(env, 'DELIVERY_POLL_SECONDS', 15),
    seedDemo: parseSeedDemo(env.SEED_DEMO),
  };
}

/** SEED_DEMO: unset or "auto", "1" (also true/yes/on) or "0" (also false/no/off). */
export function parseSeedDemo(raw: string | undefined): 'auto' | boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`SEED_DEMO must be 0, 1 or auto, got "${raw}"`);
}

/** TOKEN_TTL accepts seconds ("28800") or a number with a unit ("8h", "30m", "45s", "2d"). */
export function parseTtl(raw: string | undefined): number {
  if (!raw) return 8 * 3600;
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw.trim());
  if (!match) throw new Error(`TOKEN_TTL must look like 28800, 8h, 30m or 2d, got "${raw}"`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
