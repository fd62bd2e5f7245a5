import fs from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/** The screens whose code a page request preloads, by their source module in web/. */
export const PAGE_MODULES = {
  home: 'src/storefront/home/HomePage.tsx',
  shop: 'src/storefront/shop/ShopPage.tsx',
  product: 'src/storefront/product/ProductOrderPage.tsx',
  blog: 'src/blog/BlogListPage.tsx',
  blogPost: 'src/blog/BlogPostPage.tsx',
  developers: 'src/storefront/developers/DevelopersPage.tsx',
} as const;
export type PageModule = keyof typeof PAGE_MODULES;

/** The app shell, which loads the first part of a language's texts. */
const APP_SHELL = 'src/app/start.tsx';
/** The part of a language's catalogue a module loads: `src/storefront/cart/CartPage.tsx` → `src/storefront/cart/CartPage.de.js`. */
const textsOf = (module: string, locale: string) => module.replace(/\.[^./]+$/, `.${locale}.js`);

let cached: { file: string; mtimeMs: number; manifest: Record<string, ManifestChunk> } | null = null;

function readManifest(webDir: string): Record<string, ManifestChunk> | null {
  const file = path.join(webDir, '.vite', 'manifest.json');
  try {
    const { mtimeMs } = fs.statSync(file);
    if (!cached || cached.file !== file || cached.mtimeMs !== mtimeMs) cached = { file, mtimeMs, manifest: JSON.parse(fs.readFileSync(file, 'utf8')) };
    return cached.manifest;
  } catch {
    return null;
  }
}

/**
 * The scripts and stylesheets of a page's screen (its lazily loaded chunk and what that imports),
 * of the app the entry starts and of the page's language, less what the entry already loads:
 * preloaded with the HTML, so the screen's code and texts arrive with the entry instead of after it.
 */
export function pageChunks(webDir: string, page: PageModule | undefined, locale: string = 'en'): { scripts: string[]; styles: string[] } {
  const manifest = readManifest(webDir);
  if (!manifest?.['index.html']) return { scripts: [], styles: [] };
  const loaded = new Set<string>();
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key)) return;
    into.add(key);
    for (const imported of manifest[key]?.imports ?? []) collect(imported, into);
  };
  collect('index.html', loaded);
  const wanted = new Set<string>();
  if (page) {
    // The stages the entry starts the app in (web/src/main.tsx imports them one after the other): fetched at once all the same.
    for (const stage of manifest['index.html'].dynamicImports ?? []) collect(stage, wanted);
    collect(PAGE_MODULES[page], wanted);
  }
  // The page's texts, which the app and its screen wait for before they draw (English is in the code):
  // the parts of the language's catalogue the app and the screen load (web/vite/catalogue-parts.ts).
  if (locale !== 'en') for (const module of [APP_SHELL, ...(page ? [PAGE_MODULES[page]] : [])]) collect(textsOf(module, locale), wanted);
  const keys = [...wanted].filter((key) => !loaded.has(key) && manifest[key]);
  return {
    scripts: keys.map((key) => `/${manifest[key]!.file}`),
    styles: keys.flatMap((key) => manifest[key]!.css ?? []).map((file) => `/${file}`),
  };
}
