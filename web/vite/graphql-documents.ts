import fs from 'node:fs';
import type { Plugin } from 'vite';

const CALL = /\bgraphql\(\s*`([^`]*)`\s*\)/g;
const DEFINITION = /^\s*(query|mutation|subscription|fragment)\s+([A-Za-z_]\w*)/;
/** A generated document: its export, its first definition (the operation or fragment it was written as) and its JSON. */
const GENERATED = /^export const (\w+) = (\{"kind":"Document","definitions":\[\{"kind":"(OperationDefinition|FragmentDefinition)"(?:,"operation":"\w+")?,"name":\{"kind":"Name","value":"(\w+)"\}.*\}) as unknown as DocumentNode<.*>;$/gm;
const VIRTUAL = '\0graphql-document:';

/**
 * Each screen's GraphQL documents, and only those, in its chunk. The documents are written next to
 * the screens as `graphql(\`query Name …\`)` calls, typed by graphql-codegen's client preset, whose
 * `graphql()` looks the text up in a map of every document of the app: any page that asks for one
 * document carries all of them (the admin console's included). In the build each call is replaced
 * by the generated document it stands for (`NameDocument`, `NameFragmentDoc`), each a module of its
 * own (its JSON, read from the generated module), so a chunk carries only the documents its screens
 * use — what the client preset's Babel plugin does, for a build without Babel.
 */
export function graphqlDocuments(generated: string): Plugin {
  /** The generated documents by definition ("fragment Name" or "operation Name"): export name and JSON. */
  let documents: Map<string, { name: string; json: string }> | null = null;
  const read = () =>
    (documents ??= new Map(
      [...fs.readFileSync(generated, 'utf8').matchAll(GENERATED)].map(([, name, json, kind, definition]) => [
        `${kind === 'FragmentDefinition' ? 'fragment' : 'operation'} ${definition}`,
        { name: name!, json: json! },
      ]),
    ));
  return {
    name: 'graphql-documents',
    apply: 'build',
    resolveId: {
      filter: { id: /^\0graphql-document:/ },
      handler: (id) => id,
    },
    load: {
      filter: { id: /^\0graphql-document:/ },
      handler(id) {
        const name = id.slice(VIRTUAL.length);
        const document = [...read().values()].find((entry) => entry.name === name);
        if (!document) return null;
        return `export default ${document.json};\n`;
      },
    },
    transform: {
      filter: { id: /\.(ts|tsx)$/, code: 'graphql(' },
      handler(code, id) {
        if (id.startsWith(generated.replace(/graphql\.ts$/, ''))) return null;
        const names = new Set<string>();
        const replaced = code.replace(CALL, (_call, text: string) => {
          const definition = DEFINITION.exec(text);
          if (!definition) this.error(`${id}: a graphql() document without a named operation or fragment`);
          const key = `${definition[1] === 'fragment' ? 'fragment' : 'operation'} ${definition[2]}`;
          const name = read().get(key)?.name;
          if (!name) this.error(`${id}: no generated document for ${key} in ${generated}; run \`npm run codegen\``);
          names.add(name);
          return `__document_${name}`;
        });
        if (!names.size) return null;
        const imports = [...names].map((name) => `import __document_${name} from ${JSON.stringify(VIRTUAL + name)};\n`).join('');
        return { code: imports + replaced, map: null };
      },
    },
  };
}
