import { describe, expect, it } from 'vitest';
import { demoSeedEnabled, loadConfig, parseSeedDemo, parseTtl, runsJobs, servesHttp } from '../../server/src/config.js';

describe('configuration from the environment', () => {
  it('has the contract defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      databaseUrl: undefined,
      tokenTtlSeconds: 8 * 3600,
      admin: { username: 'admin', email: 'admin@example.com', password: undefined },
      graphqlIntrospection: true,
      maxUploadMb: 25,
      loginLimits: { perUsername: 10, perAddress: 50, windowSeconds: 900 },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('lets one client address sign up no more often than it may ask for password resets, unless told otherwise', () => {
    expect(loadConfig({}).limits).toMatchObject({ registerPerHour: 5, passwordResetsPerAddressPerHour: 5 });
    expect(loadConfig({ PASSWORD_RESET_MAX_PER_HOUR: '3' }).limits).toMatchObject({ registerPerHour: 3, passwordResetsPerAddressPerHour: 3 });
    expect(loadConfig({ PASSWORD_RESET_MAX_PER_HOUR: '3', REGISTER_MAX_PER_HOUR: '20' }).limits).toMatchObject({ registerPerHour: 20, passwordResetsPerAddressPerHour: 3 });
  });

  it('reads the variables', () => {
    const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://x/y', DATA_DIR: '/srv/cards', GRAPHQL_INTROSPECTION: '0', TOKEN_TTL: '30m', ADMIN_PASSWORD: 'secret-pass' });
    expect(config).toMatchObject({ port: 8080, databaseUrl: 'postgres://x/y', dataDir: '/srv/cards', graphqlIntrospection: false, tokenTtlSeconds: 1800 });
    expect(config.admin.password).toBe('secret-pass');
  });

  it.each([
    ['28800', 28800],
    ['8h', 28800],
    ['45s', 45],
    ['2d', 172800],
  ])('parses TOKEN_TTL %s', (raw, seconds) => expect(parseTtl(raw)).toBe(seconds));

  it('refuses nonsense', () => {
    expect(() => parseTtl('soon')).toThrow(/TOKEN_TTL/);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });

  it('refuses private webhook addresses unless WEBHOOK_ALLOW_PRIVATE=1, and holds a claim on a delivery 30 s (at most 60)', () => {
    expect(loadConfig({})).toMatchObject({ webhookAllowPrivate: false, webhookLeaseSeconds: 30 });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_LEASE_SECONDS: '5' })).toMatchObject({ webhookAllowPrivate: true, webhookLeaseSeconds: 5 });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes', WEBHOOK_LEASE_SECONDS: '600' })).toMatchObject({ webhookAllowPrivate: false, webhookLeaseSeconds: 60 });
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: 'soon' })).toThrow(/WEBHOOK_LEASE_SECONDS/);
  });

    it('reads SEED_DEMO as auto, on or off', () => {
    expect(loadConfig({}).seedDemo).toBe('auto');
    expect(parseSeedDemo('auto')).toBe('auto');
    for (const on of ['1', 'true', 'YES', ' on ']) expect(parseSeedDemo(on)).toBe(true);
    for (const off of ['0', 'false', 'no', 'Off']) expect(parseSeedDemo(off)).toBe(false);
    expect(() => loadConfig({ SEED_DEMO: 'sometimes' })).toThrow(/SEED_DEMO/);
  });

  it('seeds the demo into the embedded database only, unless told otherwise', () => {
    const enabled = (env: NodeJS.ProcessEnv) => demoSeedEnabled(loadConfig(env));
    expect(enabled({})).toBe(true);
    expect(enabled({ DATABASE_URL: 'postgres://x/y' })).toBe(false);
    expect(enabled({ DATABASE_URL: 'postgres://x/y', SEED_DEMO: '1' })).toBe(true);
    expect(enabled({ SEED_DEMO: '0' })).toBe(false);
  });

  it('reads APP_ROLE: all by default, web serves without jobs, worker runs jobs without serving', () => {
    expect(loadConfig({}).appRole).toBe('all');
    expect(loadConfig({ APP_ROLE: ' Web ' }).appRole).toBe('web');
    expect(() => loadConfig({ APP_ROLE: 'cron' })).toThrow(/APP_ROLE/);
    expect([servesHttp('all'), runsJobs('all')]).toEqual([true, true]);
    expect([servesHttp('web'), runsJobs('web')]).toEqual([true, false]);
    expect([servesHttp('worker'), runsJobs('worker')]).toEqual([false, true]);
  });

  it('selects the S3 storage by S3_BUCKET, with its defaults', () => {
    expect(loadConfig({ S3_ENDPOINT: 'http://minio:9000' }).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'cards' }).s3).toEqual({ bucket: 'cards', endpoint: undefined, region: 'us-east-1', credentials: undefined, forcePathStyle: false });
    expect(
      loadConfig({ S3_BUCKET: 'cards', S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_FORCE_PATH_STYLE: '1' }).s3,
    ).toEqual({ bucket: 'cards', endpoint: 'http://minio:9000', region: 'eu-west-1', credentials: { accessKeyId: 'id', secretAccessKey: 'secret' }, forcePathStyle: true });
    expect(() => loadConfig({ S3_BUCKET: 'cards', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY/);
  });
});
