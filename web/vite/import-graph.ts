import { parseAst } from 'vite';
import type { Rolldown } from 'vite';

type Context = Rolldown.PluginContext;
/** The exports of a module asked for: some names, or all of them. */
type Wanted = Set<string> | 'all';

interface ModuleShape {
  /** Whether the module has code of its own (anything but imports and re-exports). */
  ownCode: boolean;
  /** Its own imports: the module imported and the names it takes from it. */
  imports: { id: string; names: Wanted }[];
  /** `export { a as b } from './x'`: b → (x, a); `export * as ns from './x'` → (x, all). */
  reexports: Map<string, { id: string; name: string | 'all' }>;
  /** `export * from './x'`. */
  starFrom: string[];
  /** Modules it imports some other way (require, injected helpers): taken whole. */
  others: string[];
}

/**
 * The modules a set of roots needs, following the names imported through re-exports: a library's
 * entry module re-exports everything it has, so its plain import graph says the whole library is
 * needed where a page uses one button. A module with code of its own is needed whole (with all it
 * imports); a module that only re-exports passes on only the names asked of it. Dynamic imports
 * are not followed. The answer is by module, a little more than the bundler keeps after tree
 * shaking, never less.
 */
export async function neededModules(context: Context, roots: string[]): Promise<Set<string>> {
  const shapes = new Map<string, ModuleShape | null>();
  const resolved = new Map<string, string | null>();
  const resolve = async (source: string, importer: string) => {
    const key = `${importer}\n${source}`;
    if (!resolved.has(key)) resolved.set(key, (await context.resolve(source, importer))?.id ?? null);
    return resolved.get(key)!;
  };
  const shapeOf = async (id: string): Promise<ModuleShape | null> => {
    if (shapes.has(id)) return shapes.get(id)!;
    const info = context.getModuleInfo(id);
    let shape: ModuleShape | null = null;
    if (info?.code != null) {
      try {
        shape = await readShape(id, info.code, info.importedIds, resolve);
      } catch {
        shape = null; // Not JavaScript we can read: taken whole, with all it imports.
      }
    }
    shapes.set(id, shape);
    return shape;
  };

  const asked = new Map<string, Set<string> | 'all'>();
  const visited = new Set<string>();
  const queue: { id: string; names: Wanted }[] = roots.map((id) => ({ id, names: 'all' as const }));
  while (queue.length) {
    const { id, names } = queue.pop()!;
    const before = asked.get(id);
    const fresh: Wanted = names === 'all' ? 'all' : new Set([...names].filter((name) => before !== 'all' && !before?.has(name)));
    if (before === 'all' || (fresh !== 'all' && fresh.size === 0 && visited.has(id))) continue;
    asked.set(id, fresh === 'all' ? 'all' : new Set([...(before ?? []), ...fresh]));
    const firstVisit = !visited.has(id);
    visited.add(id);
    const shape = await shapeOf(id);
    if (!shape) {
      if (firstVisit) for (const imported of context.getModuleInfo(id)?.importedIds ?? []) queue.push({ id: imported, names: 'all' });
      continue;
    }
    if (firstVisit && shape.ownCode) {
      for (const imported of shape.imports) queue.push(imported);
      for (const other of shape.others) queue.push({ id: other, names: 'all' });
    }
    const info = context.getModuleInfo(id);
    const wantedNames = fresh === 'all' ? [...shape.reexports.keys(), ...(info?.exports ?? [])] : [...fresh];
    for (const name of new Set(wantedNames)) {
      const reexport = shape.reexports.get(name);
      if (reexport) {
        queue.push({ id: reexport.id, names: reexport.name === 'all' ? 'all' : new Set([reexport.name]) });
        continue;
      }
      for (const from of shape.starFrom) if (context.getModuleInfo(from)?.exports.includes(name)) queue.push({ id: from, names: new Set([name]) });
    }
    if (fresh === 'all') for (const from of shape.starFrom) queue.push({ id: from, names: 'all' });
  }
  return visited;
}

async function readShape(
  id: string,
  code: string,
  importedIds: readonly string[],
  resolve: (source: string, importer: string) => Promise<string | null>,
): Promise<ModuleShape> {
  const program = parseAst(code, { lang: 'js' }) as unknown as { body: Node[] };
  const shape: ModuleShape = { ownCode: false, imports: [], reexports: new Map(), starFrom: [], others: [] };
  const declared = new Set<string>();
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration') {
      const from = await resolve(node.source!.value, id);
      if (!from) continue;
      declared.add(from);
      const specifiers = node.specifiers ?? [];
      const names: Wanted = specifiers.some((s) => s.type === 'ImportNamespaceSpecifier')
        ? 'all'
        : new Set(specifiers.map((s) => (s.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(s.imported!))));
      shape.imports.push({ id: from, names });
    } else if (node.type === 'ExportAllDeclaration') {
      const from = await resolve(node.source!.value, id);
      if (!from) continue;
      declared.add(from);
      if (node.exported) shape.reexports.set(nameOf(node.exported), { id: from, name: 'all' });
      else shape.starFrom.push(from);
    } else if (node.type === 'ExportNamedDeclaration' && node.source) {
      const from = await resolve(node.source.value, id);
      if (!from) continue;
      declared.add(from);
      for (const s of node.specifiers ?? []) shape.reexports.set(nameOf(s.exported!), { id: from, name: nameOf(s.local!) });
    } else {
      shape.ownCode = true;
    }
  }
  shape.others = importedIds.filter((imported) => !declared.has(imported));
  if (shape.others.length) shape.ownCode = true;
  return shape;
}

interface Node {
  type: string;
  source?: { value: string } | null;
  specifiers?: { type: string; imported?: Name; local?: Name; exported?: Name }[];
  exported?: Name | null;
}
type Name = { type: string; name?: string; value?: string };
const nameOf = (name: Name) => (name.type === 'Literal' ? String(name.value) : name.name!);
