import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The built web client's chunks, from Vite's manifest (web/dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

export const DIST = path.resolve('web/dist');

/** The storefront's routes and the screen module each one shows. */
export const STOREFRONT_ROUTES: Record<string, string> = {
  '/': 'src/storefront/home/HomePage.tsx',
  '/shop': 'src/storefront/shop/ShopPage.tsx',
  '/product/{id}': 'src/storefront/product/ProductOrderPage.tsx',
  '/blog': 'src/blog/BlogListPage.tsx',
  '/blog/{slug}': 'src/blog/BlogPostPage.tsx',
  '/developers': 'src/storefront/developers/DevelopersPage.tsx',
  '/cart': 'src/storefront/cart/CartPage.tsx',
  '/payments': 'src/storefront/checkout/PaymentsPage.tsx',
  '/order-confirmation/{id}': 'src/storefront/order/OrderConfirmationPage.tsx',
  '/membership': 'src/storefront/membership/MembershipPage.tsx',
  '/gift-card': 'src/storefront/gift-cards/GiftCardPage.tsx',
  '/gift-cards': 'src/storefront/gift-cards/GiftCardBalancePage.tsx',
};

/** What a first visit to a storefront page may load of JavaScript, in brotli kB (issue 48: a phone's first visit at 95+). */
export const PAGE_GOAL_KB = 180;

/** The shopper's own pages, opened signed in: forms and dialogs of their own, in more scripts than a first visit elsewhere. */
export const ACCOUNT_ROUTES: Record<string, string> = {
  '/account': 'src/storefront/account/AccountPage.tsx',
  '/account/settings': 'src/storefront/account-settings/AccountSettingsPage.tsx',
  '/account/contacts': 'src/storefront/contacts/ContactsPage.tsx',
};

/** The languages a storefront page speaks besides English, whose texts are chunks of their own (English is in the code). */
export const LANGUAGES = ['de', 'fr', 'es'] as const;
/** What a first visit in another language may load more than in English, in brotli kB (issue 50). */
export const LANGUAGE_GOAL_KB = 10;
/** The app shell, which loads the first part of a language's texts (web/vite/catalogue-parts.ts). */
export const APP_SHELL = 'src/app/start.tsx';

/** What must never load with a storefront page: its module, and a text only its code carries. */
export const KEPT_APART = [
  { what: 'the admin console', module: 'src/admin/AdminDashboard.tsx', marker: 'Categories & Products' },
  { what: 'the blog editor', module: 'src/blog/editor/BlogEditorPage.tsx', marker: 'Save and publish' },
  { what: 'the GraphQL explorer', module: 'explorer.html', marker: 'graphiql' },
];

export function readManifest(dist = DIST): Manifest {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build:web\` first.`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** The manifest keys a module loads before it runs (itself and its static imports, transitively). */
export function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key]!.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** The scripts and stylesheets of a first visit to a route: the entry's, then the screen's. */
export function routeFiles(manifest: Manifest, screen: string): { js: string[]; css: string[] } {
  const entry = staticClosure(manifest, 'index.html');
  // The app itself, which the entry imports in stages (web/src/main.tsx).
  for (const stage of manifest['index.html']?.dynamicImports ?? []) staticClosure(manifest, stage, entry);
  const keys = staticClosure(manifest, screen, entry);
  const chunks = [...keys].map((key) => manifest[key]!);
  return { js: [...new Set(chunks.map((c) => c.file))], css: [...new Set(chunks.flatMap((c) => c.css ?? []))] };
}

/** The chunk of a module's texts in a language (web/vite/catalogue-parts.ts): `src/storefront/cart/CartPage.tsx` → `src/storefront/cart/CartPage.de.js`. */
export const textsKey = (module: string, language: string) => module.replace(/\.[^./]+$/, `.${language}.js`);

/** The scripts a first visit to a route in a language loads beyond the English visit's: the texts of the app and of the route's screen. */
export function languageFiles(manifest: Manifest, screen: string, language: string): string[] {
  const english = new Set(routeFiles(manifest, screen).js);
  const keys = new Set<string>();
  for (const module of [APP_SHELL, screen]) staticClosure(manifest, textsKey(module, language), keys);
  return [...new Set([...keys].map((key) => manifest[key]!.file))].filter((file) => !english.has(file));
}

export const compressedKb = (file: string, dist = DIST) => {
  const bytes = fs.readFileSync(path.join(dist, file));
  return {
    br: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length / 1024,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length / 1024,
  };
};
