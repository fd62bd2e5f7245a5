import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { catalogueParts } from '../../web/vite/catalogue-parts.js';

type Handler = (this: unknown, ...args: unknown[]) => unknown;
const handlerOf = (hook: Plugin['transform'] | Plugin['load'] | Plugin['resolveId'] | Plugin['buildStart']) => (typeof hook === 'function' ? hook : (hook as { handler: Handler }).handler) as Handler;

/**
 * A language's catalogue in parts (web/vite/catalogue-parts.ts), on a small app: the shell shows the
 * navigation, a lazily loaded page its own texts and a shared module's, a console screen none.
 */
describe('catalogue parts', () => {
  let root: string;
  const src = () => `${root}/src/`;
  const files: Record<string, string> = {
    'src/app/start.tsx': "import { Nav } from './Nav';\nimport type { default as PageType } from '../page/Page';\nexport const Page = () => import('../page/Page');\nexport const Console = () => import('../admin/Console');\n",
    'src/app/Nav.tsx': "export const Nav = () => intl.formatMessage({ id: 'nav.shop', defaultMessage: 'Shop' });\n",
    'src/page/Page.tsx': "import { shared } from '../common/shared';\nexport default () => <FormattedMessage id=\"page.title\" defaultMessage=\"Title\" />;\nconst Dialog = lazy(() => import('./Dialog'));\n",
    'src/page/Dialog.tsx': "export default () => intl.formatMessage({ id: 'page.dialog', defaultMessage: 'Dialog' });\n",
    'src/common/shared.ts': "export const shared = [{ id: 'nav.shop' }, { id: 'common.more' }, 'not.a.message'];\n",
    'src/admin/Console.tsx': "import { shared } from '../common/shared';\nexport default () => 'Console';\n",
    'src/i18n/page-intl.ts': 'export async function withTexts(code) { return code; }\n',
  };
  const catalogue = { 'common.more': 'Mehr', 'nav.shop': 'Laden', 'page.dialog': 'Dialog', 'page.title': 'Titel', 'unused.text': 'Unbenutzt' };
  const emitted: { id: string }[] = [];
  const context = {
    async resolve(source: string, importer: string) {
      const base = path.resolve(path.dirname(importer), source);
      const id = ['', '.tsx', '.ts'].map((ext) => base + ext).find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
      return id ? { id } : null;
    },
    emitFile(file: { id: string }) {
      emitted.push(file);
      return `ref${emitted.length - 1}`;
    },
    error(message: string) {
      throw new Error(message);
    },
  };
  let plugin: Plugin;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-parts-'));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    fs.mkdirSync(`${root}/src/i18n/messages`, { recursive: true });
    fs.writeFileSync(`${root}/src/i18n/messages/de.json`, JSON.stringify(catalogue));
    plugin = catalogueParts({ src: src(), shell: `${root}/src/app/start.tsx`, catalogues: `${root}/src/i18n/messages`, languages: ['de'], runtime: `${root}/src/i18n/page-intl.ts`, english: /[\\/]src[\\/]admin[\\/]/ });
    await handlerOf(plugin.buildStart).call(context, {});
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const load = (id: string) => handlerOf(plugin.load).call(context, id) as Promise<string>;
  /** A part's texts, each as the page reads it: parsed at build (a plain text is one literal element). */
  const texts = (code: string) => JSON.parse(/export default (\{.*\});/.exec(code)![1]!) as Record<string, unknown>;
  const parsed = (text: string) => [{ type: 0, value: text }];

  it("makes the app's catalogue its shell's part: the texts the shell names, and the table of the other parts", async () => {
    const shellPart = handlerOf(plugin.resolveId).call(context, '../i18n/messages/de.json', `${root}/src/app/start.tsx`);
    expect(shellPart).toBe(`${root}/src/app/start.de.js`);
    const code = await load(shellPart as string);
    expect(texts(code)).toEqual({ 'nav.shop': parsed('Laden') });
    expect(emitted.map((file) => path.relative(root, file.id))).toEqual(['src/page/Dialog.de.js', 'src/page/Page.de.js']);
    expect(code).toContain('export const parts = [\n  import.meta.ROLLUP_FILE_URL_ref0,\n  import.meta.ROLLUP_FILE_URL_ref1,\n];');
  });

  it("gives each lazily loaded module the texts it and its imports name, less the shell's; a console screen none", async () => {
    expect(texts(await load(`${root}/src/page/Page.de.js`))).toEqual({ 'common.more': parsed('Mehr'), 'page.title': parsed('Titel') });
    expect(texts(await load(`${root}/src/page/Dialog.de.js`))).toEqual({ 'page.dialog': parsed('Dialog') });
    await expect(load(`${root}/src/admin/Console.de.js`)).rejects.toThrow(/no module of the app is loaded lazily from here/);
  });

  it('has each lazy import fetch its part with its code', async () => {
    const transform = handlerOf(plugin.transform);
    const start = (await transform.call(context, files['src/app/start.tsx'], `${root}/src/app/start.tsx`)) as { code: string };
    expect(start.code).toContain(`import { withTexts as __withTexts } from ${JSON.stringify(`${root}/src/i18n/page-intl.ts`)};`);
    expect(start.code).toContain("export const Page = () => __withTexts(import('../page/Page'), 1);");
    expect(start.code).toContain("export const Console = () => import('../admin/Console');");
    const page = (await transform.call(context, files['src/page/Page.tsx'], `${root}/src/page/Page.tsx`)) as { code: string };
    expect(page.code).toContain("lazy(() => __withTexts(import('./Dialog'), 0))");
    expect(await transform.call(context, files['src/app/Nav.tsx'], `${root}/src/app/Nav.tsx`)).toBeNull();
  });
});
