import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What an owner reads and runs to deploy the shop says what the code does. */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Every environment variable the configuration reads (server/src/config.ts and server/src/config/). */
function configVariables(): string[] {
  const parts = fs.readdirSync(path.join(root, 'server/src/config')).filter((file) => file.endsWith('.ts'));
  const source = [read('server/src/config.ts'), ...parts.map((file) => read(`server/src/config/${file}`))].join('\n');
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

  it('run node in the image as `npm run serve` does, the worker with the same memory settings', () => {
    const serve = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.serve!;
    const nodeArgs = (command: string) => /node ((?:--\S+ )*)dist\/gateway\/src\/main\.js/.exec(command)?.[1]?.trim();
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]!) as string[];
    expect(cmd.slice(0, 2)).toEqual(['sh', '-c']);
    expect(cmd[2]).toMatch(/^exec node /);
    expect(nodeArgs(cmd[2]!)).toBe(nodeArgs(serve));
    expect(nodeArgs(serve)).toContain('--max-semi-space-size=${NODE_SEMI_SPACE_MB:-2}');
    // Finished compiles are freed as they are installed, not by helper threads that wait while the shop is busy (README, Memory).
    expect(nodeArgs(serve)).toContain('--no-maglev-destroy-on-background');
    const compose = read('deploy/compose.yaml');
    const worker = /^ {2}worker:\n((?: {4}.*\n)+)/m.exec(compose)?.[1] ?? '';
    expect(worker).toMatch(/APP_ROLE: worker\n/);
    expect(worker).not.toMatch(/NODE_SEMI_SPACE_MB|NODE_OPTIONS/);
    expect(read('README.md')).toContain('`NODE_SEMI_SPACE_MB`');
  });

  it('document every setting the configuration reads, and no longer say that only the test provider can take payments', () => {
    const readme = read('README.md');
    const names = configVariables();
    expect(names).toEqual(expect.arrayContaining(['PAYMENT_PROVIDER', 'STRIPE_API_BASE', 'DISCOUNT_CODE_MAX_FAILURES_PER_HOUR', 'PUBLIC_URL']));
    for (const name of names) expect(readme, name).toContain(`\`${name}\``);
    expect(readme).not.toMatch(/test` provider only|only the (built-in )?`?test`? provider|not configurable yet/i);
    expect(readme).toMatch(/^\| Payments \| `PAYMENT_PROVIDER=stripe`/m);
  });

  it('run Prometheus, scraping every shop process with the metrics token, and Grafana with its data source and dashboard', () => {
    const compose = read('deploy/compose.yaml');
    const service = (name: string) => new RegExp(`^  ${name}:\n((?: {4}.*\n|\n)+)`, 'm').exec(compose)?.[1] ?? '';
    // Every shop process is scraped directly, with the token the shop processes are given.
    const shops = [...compose.matchAll(/^ {2}([\w-]+):\n {4}<<: \*shop\n/gm)].map((m) => m[1]);
    expect(shops.sort()).toEqual(['web1', 'web2', 'worker']);
    const prometheus = read('deploy/prometheus/prometheus.yml');
    const targets = [...prometheus.matchAll(/"([\w-]+):4000"/g)].map((m) => m[1]).sort();
    expect(targets).toEqual(shops);
    expect(prometheus).toMatch(/metrics_path: \/metrics\n\s+authorization:\n\s+type: Bearer\n\s+credentials_file: \/etc\/prometheus\/metrics-token/);
    expect(compose).toMatch(/^ {4}METRICS_TOKEN: \$\{METRICS_TOKEN:-(.+)\}$/m);
    const defaultToken = /^ {4}METRICS_TOKEN: \$\{METRICS_TOKEN:-(.+)\}$/m.exec(compose)![1];
    expect(read('deploy/prometheus/metrics-token').trim()).toBe(defaultToken);
    expect(service('prometheus')).toMatch(/- \.\/prometheus\/prometheus\.yml:\/etc\/prometheus\/prometheus\.yml:ro/);
    expect(service('prometheus')).toMatch(/- \.\/prometheus\/metrics-token:\/etc\/prometheus\/metrics-token:ro/);
    // Grafana reads Prometheus and the dashboard of deploy/grafana/dashboards.
    expect(service('grafana')).toMatch(/- \.\/grafana\/provisioning:\/etc\/grafana\/provisioning:ro/);
    expect(service('grafana')).toMatch(/- \.\/grafana\/dashboards:\/var\/lib\/grafana\/dashboards:ro/);
    expect(read('deploy/grafana/provisioning/datasources/prometheus.yaml')).toMatch(/url: http:\/\/prometheus:9090/);
    expect(read('deploy/grafana/provisioning/dashboards/shop.yaml')).toMatch(/path: \/var\/lib\/grafana\/dashboards/);
    const dashboard = JSON.parse(read('deploy/grafana/dashboards/art-and-song-cards.json'));
    expect(dashboard.title).toBe('Art & Song Cards');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(8);
  });
});
