import type { Plugin, Rolldown } from 'vite';
import { neededModules } from './import-graph.ts';

type Group = Rolldown.CodeSplittingGroup;

/**
 * The storefront's first visit in a handful of scripts instead of dozens. Left to itself the
 * bundler makes a chunk for every combination of screens that share a module (a Blueprint button
 * used by the product page and three admin screens is a chunk of its own): a product page needed 36
 * scripts, and a phone spends about a millisecond of main thread on each one it fetches. Here the
 * storefront starts with a chunk per start-up stage of web/src/main.tsx (React; Apollo; the app
 * shell with what the storefront's pages share), then the page's own code in two (its module, and
 * what only it uses). Admin screens load these chunks too and keep their own modules to themselves.
 *
 * Which modules those are is known once the module graph is built: at the end of the build the
 * plugin finds what the shell and each page need (import-graph.ts), and the chunk groups ask it
 * when the chunks are made.
 */
export function storefrontChunks({ entry, shell, pages, screens = [], stages, common }: {
  /** The entry (index.html): what it imports itself stays apart from the chunks below. */
  entry: string;
  /** The app shell (app/start.tsx). */
  shell: string;
  /** The storefront's page modules, by chunk name. */
  pages: Record<string, string>;
  /**
   * The storefront's other screens (the cart, checkout, membership, the account's pages): what one
   * of them uses is not a page's own, else opening the cart would fetch the product page's chunk
   * for a Blueprint module both show.
   */
  screens?: string[];
  /** The start-up stages before the shell, by chunk name, in order: the modules each holds. */
  stages: { name: string; test: RegExp }[];
  /**
   * Modules most screens read that are too small for a request of their own (the server's error
   * messages): with the shared chunks, whichever pages use them.
   */
  common?: RegExp;
}): { plugin: Plugin; groups: Group[] } {
  let fromEntry = new Set<string>();
  let shared = new Set<string>();
  let withScreens = new Set<string>();
  const pageOnly = new Map<string, Set<string>>();

  const plugin: Plugin = {
    name: 'storefront-chunks',
    apply: 'build',
    async buildEnd() {
      const ids = [...this.getModuleIds()];
      const moduleId = (path: string) => ids.find((id) => id === path || id.startsWith(`${path}?`)) ?? path;
      fromEntry = new Set<string>();
      const queue = [moduleId(entry)];
      while (queue.length) {
        const id = queue.pop()!;
        if (fromEntry.has(id)) continue;
        fromEntry.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      const fromPages = await Promise.all(Object.entries(pages).map(async ([name, path]) => [name, await neededModules(this, [moduleId(path)])] as const));
      const fromScreens = await neededModules(this, screens.map(moduleId));
      const uses = new Map<string, number>();
      for (const [, modules] of fromPages) for (const id of modules) uses.set(id, (uses.get(id) ?? 0) + 1);
      const sharedByPages = [...uses].filter(([, count]) => count > 1).map(([id]) => id);
      const everywhere = common ? ids.filter((id) => common.test(id)) : [];
      shared = new Set([...(await neededModules(this, [moduleId(shell)])), ...sharedByPages, ...everywhere].filter((id) => !fromEntry.has(id)));
      // What a page shares with the other screens: a chunk of its own, else the page's chunk would take it along.
      withScreens = new Set(fromPages.flatMap(([name, modules]) => [...modules].filter((id) => id !== moduleId(pages[name]!) && fromScreens.has(id) && !shared.has(id) && !fromEntry.has(id))));
      // The page's module itself stays the entry of a chunk of its own (the server finds its chunk by it in the manifest).
      for (const [name, modules] of fromPages) {
        pageOnly.set(name, new Set([...modules].filter((id) => id !== moduleId(pages[name]!) && !shared.has(id) && !fromEntry.has(id) && !withScreens.has(id))));
      }
    },
  };

  const groups: Group[] = [
    // What the entry imports itself, kept out of the groups below (each takes its modules' imports along).
    { name: 'entry', priority: 200, test: (id: string) => fromEntry.has(id) },
    ...stages.map(({ name, test }, index) => ({ name, priority: 100 - index, test: (id: string) => shared.has(id) && test.test(id) })),
    { name: 'storefront', priority: 50, test: (id: string) => shared.has(id) },
    { name: 'screens', priority: 20, test: (id: string) => withScreens.has(id) },
    ...Object.keys(pages).map((name) => ({ name, priority: 10, test: (id: string) => pageOnly.get(name)?.has(id) ?? false })),
  ];
  return { plugin, groups };
}
