import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of the code: imports run only downward. On the server, the gateway and the runtime
 * compose the modules, modules build on `core`, and `core` knows no feature. On the web, the app
 * shell composes the features, which build on `common`, `auth`, `settings` and `apollo`; those know
 * no feature and not the shell. The web takes from the server only `server/src/rules` (`@rules`),
 * which imports nothing but itself and pure libraries (it runs in browsers too).
 *
 * (A dependency checker such as dependency-cruiser needs TypeScript's compiler API, which the
 * project's TypeScript 7 does not offer, or @swc/core, whose builds for every platform the lock
 * file must name; the imports of this tree are plain enough to read directly.)
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Rule {
  name: string;
  from: RegExp;
  fromNot?: RegExp;
  to: RegExp;
}

const RULES: Rule[] = [
  { name: 'server core knows no feature', from: /^server\/src\/core\//, to: /^server\/src\/(modules|schema|demo|db|services|runtime|entities)\b/ },
  { name: 'modules are below the composition root', from: /^server\/src\/modules\//, to: /^server\/src\/(services|runtime|schema|demo|entities)\b/ },
  { name: 'the mail queue knows no feature: features register their e-mails with it', from: /^server\/src\/modules\/mail\//, to: /^server\/src\/modules\/(?!mail\/)/ },
  { name: 'the server is below the gateway and the web', from: /^server\//, to: /^(gateway|web)\// },
  { name: 'the shared rules import only themselves', from: /^server\/src\/rules\//, to: /^(server\/src\/(?!rules\/)|gateway\/|web\/)/ },
  { name: 'the web takes only the shared rules from the server', from: /^web\//, to: /^(server\/src\/(?!rules\/)|gateway\/)/ },
  { name: 'only the shell imports web/src/app', from: /^web\/src\//, fromNot: /^web\/src\/(app\/|main\.tsx$|entry-server\.tsx$)/, to: /^web\/src\/app\// },
  { name: 'common, auth, settings and apollo know no feature', from: /^web\/src\/(common|auth|settings|apollo)\//, to: /^web\/src\/(storefront|admin|blog|explorer)\// },
];

const SOURCE = /\.(ts|tsx)$/;
const SKIP = /(^|\/)(node_modules|dist|ssr|generated)(\/|$)/;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
    .filter((file) => SOURCE.test(file) && !SKIP.test(file));
}

/** Every relative module a file names in an import, an export-from or a dynamic import (types included). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(SPECIFIER)].map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!)));
}

/** The packages a file imports by name (`node:fs`, `zod`, …). */
const PACKAGE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^.'"][^'"]*)['"]/g;
const packagesOf = (file: string) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(PACKAGE)].map((match) => match[1]!);

const FILES = [...sources('server'), ...sources('gateway'), ...sources('web/src')];

describe('the layering', () => {
  it('reads the tree', () => {
    expect(FILES.length).toBeGreaterThan(200);
    expect(importsOf('gateway/src/boot.ts')).toContain('server/src/runtime.js');
  });

  it('has imports that run only downward', () => {
    const violations: string[] = [];
    for (const file of FILES) {
      const rules = RULES.filter((rule) => rule.from.test(file) && !rule.fromNot?.test(file));
      if (!rules.length) continue;
      for (const target of importsOf(file)) {
        for (const rule of rules) if (rule.to.test(target)) violations.push(`${rule.name}: ${file} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the shared rules free of Node: they run in browsers too', () => {
    const rules = FILES.filter((file) => file.startsWith('server/src/rules/'));
    expect(rules.length).toBeGreaterThan(3);
    const nodeOnly = rules.flatMap((file) => packagesOf(file).filter((name) => name.startsWith('node:') || builtinModules.includes(name)).map((name) => `${file} → ${name}`));
    expect(nodeOnly).toEqual([]);
  });

  it('would catch an import running back up', () => {
    const rule = RULES.find((r) => r.name === 'server core knows no feature')!;
    expect(rule.from.test('server/src/core/context.ts') && rule.to.test('server/src/modules/auth/user.entity.js')).toBe(true);
    const shell = RULES.find((r) => r.name === 'only the shell imports web/src/app')!;
    expect(shell.from.test('web/src/blog/PostDate.tsx') && !shell.fromNot!.test('web/src/blog/PostDate.tsx') && shell.to.test('web/src/app/hydration')).toBe(true);
    expect(shell.fromNot!.test('web/src/app/App.tsx')).toBe(true);
  });
});
