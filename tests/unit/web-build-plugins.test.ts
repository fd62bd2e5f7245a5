import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { blueprintIconNames } from '../../web/vite/icon-names.js';
import { graphqlDocuments } from '../../web/vite/graphql-documents.js';
import { escapeBeyondLatin1 } from '../../web/vite/one-byte-source.js';

const require = createRequire(import.meta.url);

type Handler = (this: unknown, ...args: unknown[]) => unknown;
const handlerOf = (hook: Plugin['transform'] | Plugin['load'] | Plugin['resolveId']) => (typeof hook === 'function' ? hook : (hook as { handler: Handler }).handler) as Handler;
const context = { warn: (message: string) => console.warn(message), error: (message: string) => { throw new Error(message); } };

/** The build's own plugins (web/vite): each leaves what the app sees unchanged. */
describe('web build plugins', () => {
  it("builds Blueprint's table of icon names without change-case, and the very same table", () => {
    const id = require.resolve('@blueprintjs/icons/lib/esm/iconNames.js');
    const transform = handlerOf(blueprintIconNames().transform);
    const out = transform.call(context, fs.readFileSync(id, 'utf8'), id) as { code: string };
    expect(out.code).not.toMatch(/pascalCase|snakeCase|change-case/);
    // The module as the build gives it, run against the generated enum it imports.
    const body = `${out.code.replace(/^import .*$/m, '').replace(/export const /g, 'const ')}\nreturn { IconNames, IconNamesSet };`;
    const { BlueprintIcons_16 } = require('@blueprintjs/icons/lib/cjs/generated/16px/blueprint-icons-16.js') as { BlueprintIcons_16: Record<string, string> };
    const built = new Function('BlueprintIcons_16', body)(BlueprintIcons_16) as { IconNames: Record<string, string>; IconNamesSet: Set<string> };
    const { IconNames, IconNamesSet } = require('@blueprintjs/icons/lib/cjs/iconNames.js') as { IconNames: Record<string, string>; IconNamesSet: Set<string> };
    expect(Object.entries(built.IconNames)).toEqual(Object.entries(IconNames));
    expect([...built.IconNamesSet]).toEqual([...IconNamesSet]);
    expect(built.IconNames.ShoppingCart).toBe('shopping-cart');
    expect(built.IconNames.SHOPPING_CART).toBe('shopping-cart');
  });

  it('leaves every other module alone', () => {
    const transform = handlerOf(blueprintIconNames().transform);
    expect(transform.call(context, 'export const x = 1;', '/app/src/x.ts')).toBeNull();
  });

  describe('GraphQL documents', () => {
    const generated = path.resolve('web/src/apollo/generated/graphql.ts');
    const plugin = graphqlDocuments(generated);
    const transform = handlerOf(plugin.transform);
    const load = handlerOf(plugin.load);

    it('replaces each graphql() call by its generated document, a module of its own', async () => {
      const source = [
        "import { graphql } from '../../apollo/generated';",
        'export const StoreProductQuery = graphql(`\n  query StoreProduct($id: Int!) {\n    product(id: $id) { id }\n  }\n`);',
        'export const Fields = graphql(`\n  fragment ProductListFields on Product { id }\n`);',
      ].join('\n');
      const out = transform.call(context, source, path.resolve('web/src/storefront/x.ts')) as { code: string };
      expect(out.code).not.toContain('graphql(`');
      expect(out.code).toContain('import __document_StoreProductDocument from "\\u0000graphql-document:StoreProductDocument"');
      expect(out.code).toContain('export const StoreProductQuery = __document_StoreProductDocument;');
      expect(out.code).toContain('export const Fields = __document_ProductListFieldsFragmentDoc;');
      // The module is the generated document itself: the same JSON the generated module holds.
      const document = await load.call(context, '\0graphql-document:StoreProductDocument');
      const json = JSON.parse(String(document).replace(/^export default /, '').replace(/;\s*$/, '')) as { definitions: { kind: string; name: { value: string } }[] };
      expect(json.definitions[0]).toMatchObject({ kind: 'OperationDefinition', name: { value: 'StoreProduct' } });
      const generatedText = fs.readFileSync(generated, 'utf8');
      expect(generatedText).toContain(`export const StoreProductDocument = ${JSON.stringify(json)} as unknown as`);
    });

    it('stops the build on a document the generated code does not have', () => {
      const source = 'const Q = graphql(`\n  query NoSuchOperation { settings { underConstructionMode } }\n`);';
      expect(() => transform.call(context, source, path.resolve('web/src/storefront/y.ts'))).toThrow(/NoSuchOperation.*npm run codegen/);
    });
  });

  describe('the server renderer', () => {
    it('escapes what lies beyond Latin-1, which then means the same in strings, templates, patterns and names', () => {
      const source = "const a = 'It’s — “here”'; const b = `☕ ${a}`; const c = /[é—]/u.test('—'); const ñame = 'café'; const d = '😀'; // it’s fine";
      const escaped = escapeBeyondLatin1(source);
      expect(escaped).toMatch(/^[\x00-\xff]*$/);
      expect(escaped).toContain('café');
      const run = (code: string) => new Function(`${code}; return [a, b, c, ñame, d];`)() as unknown[];
      expect(run(escaped)).toEqual(run(source));
    });

    it('is built in one byte a character, with React’s production builds only', () => {
      const file = path.resolve(import.meta.dirname, '../../web/ssr/entry-server.js');
      const code = fs.readFileSync(file, 'utf8');
      expect(code).toMatch(/^[\x00-\xff]*$/);
      expect(code).toContain('react-dom-server.node.production');
      expect(code).not.toContain('react-dom-server.node.development');
    });
  });
});
