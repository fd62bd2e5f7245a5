import fs from 'node:fs';
import { parseAst } from 'vite';
import type { Rolldown } from 'vite';

type Context = Rolldown.PluginContext;

/** A module of the app as the texts see it: what it imports, what it loads lazily, the message ids it names. */
export interface ModuleUses {
  imports: string[];
  lazy: { specifier: string; id: string }[];
  ids: Set<string>;
}

/** A string literal shaped like a message id (`product.addToCart`); it counts when the catalogue has it. */
const QUOTED_ID = /(['"`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g;
/** `import('./x')`: a module loaded lazily. */
export const LAZY_IMPORT = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;

/**
 * The app's modules from `roots`, following their static and lazy imports through `src` (the
 * libraries name no message of the app), each with the ids of the catalogue its source names.
 * Read from the sources on disk, so the answer does not depend on the order the bundler loads them in.
 */
export async function readMessageUses(context: Context, roots: string[], src: string, isMessageId: (id: string) => boolean): Promise<Map<string, ModuleUses>> {
  const modules = new Map<string, Promise<ModuleUses>>();
  const own = (id: string | undefined) => (id && id.startsWith(src) && /\.tsx?$/.test(id) ? id : null);
  const resolve = async (specifier: string, importer: string) => own((await context.resolve(specifier, importer, { skipSelf: true }))?.id);
  const read = async (file: string): Promise<ModuleUses> => {
    const source = fs.readFileSync(file, 'utf8');
    const program = parseAst(source, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' }) as unknown as { body: Node[] };
    const specifiers = program.body
      .filter((node) => node.source && node.importKind !== 'type' && node.exportKind !== 'type' && /^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type))
      .map((node) => node.source!.value);
    const imports = (await Promise.all(specifiers.map((specifier) => resolve(specifier, file)))).filter((id) => id !== null);
    const lazy = (await Promise.all([...source.matchAll(LAZY_IMPORT)].map(async ([, , specifier]) => ({ specifier: specifier!, id: await resolve(specifier!, file) }))))
      .filter((entry): entry is { specifier: string; id: string } => entry.id !== null);
    const ids = new Set([...source.matchAll(QUOTED_ID)].map(([, , id]) => id!).filter(isMessageId));
    for (const next of [...imports, ...lazy.map((entry) => entry.id)]) visit(next);
    return { imports, lazy, ids };
  };
  const visit = (file: string) => {
    if (!modules.has(file)) modules.set(file, read(file));
  };
  roots.forEach(visit);
  // Each read starts the reads of what it imports: wait until no read is left unfinished.
  for (let count = -1; count !== modules.size; ) {
    count = modules.size;
    await Promise.all(modules.values());
  }
  return new Map(await Promise.all([...modules].map(async ([file, uses]) => [file, await uses] as const)));
}

/** The ids a module and what it imports statically name. */
export function idsOfClosure(modules: Map<string, ModuleUses>, root: string): Set<string> {
  const seen = new Set<string>();
  const ids = new Set<string>();
  const queue = [root];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const uses = modules.get(file);
    if (!uses) continue;
    for (const id of uses.ids) ids.add(id);
    queue.push(...uses.imports);
  }
  return ids;
}

interface Node {
  type: string;
  source?: { value: string } | null;
  importKind?: string;
  exportKind?: string;
}
