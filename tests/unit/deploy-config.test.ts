import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What an owner reads and runs to deploy the shop says what the code does. */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Every environment variable the configuration reads (server/src/config.ts). */
function configVariables(): string[] {
  const source = read('server/src/config.ts');
  const names = [...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|intEnv\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]!);
  return [...new Set(names)].sort();
}

describe('the deployment files', () => {
  it('let the example Compose setup take payments: PAYMENT_PROVIDER and the Stripe keys reach every shop process', () => {
    const compose = read('deploy/compose.yaml');
    // The environment every shop service (web1, web2, worker) shares.
    const shared = /environment: &shop-env\n((?: {4}.*\n)+)/.exec(compose)?.[1] ?? '';
    for (const name of ['PAYMENT_PROVIDER', 'STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']) {
      expect(shared, name).toMatch(new RegExp(`^ {4}${name}: \\$\\{${name}:-\\}$`, 'm'));
    }
    expect((compose.match(/<<: \*shop-env/g) ?? []).length).toBe(3);
  });

  it('document every setting the configuration reads, and no longer say that only the test provider can take payments', () => {
    const readme = read('README.md');
    const names = configVariables();
    expect(names).toEqual(expect.arrayContaining(['PAYMENT_PROVIDER', 'STRIPE_API_BASE', 'DISCOUNT_CODE_MAX_FAILURES_PER_HOUR', 'PUBLIC_URL']));
    for (const name of names) expect(readme, name).toContain(`\`${name}\``);
    expect(readme).not.toMatch(/test` provider only|only the (built-in )?`?test`? provider|not configurable yet/i);
    expect(readme).toMatch(/^\| Payments \| `PAYMENT_PROVIDER=stripe`/m);
  });
});
