import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { visualizer } from 'rollup-plugin-visualizer';
import { constants as zlib } from 'node:zlib';
import { blueprintIconNames } from './vite/icon-names.ts';
import { graphqlDocuments } from './vite/graphql-documents.ts';
import { storefrontChunks } from './vite/storefront-chunks.ts';
import { oneByteSource } from './vite/one-byte-source.ts';
import { catalogueParts } from './vite/catalogue-parts.ts';
import { aliasNoParser, precompiledMessages } from './vite/precompiled-messages.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const backend = 'http://localhost:4000';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ttf|eot)$/;
/** The GraphQL explorer's editor and workers, large and opened only by API users. */
const EXPLORER_ASSETS = /(monaco-editor|explorer|\.worker|mouseTarget|estree|babel|codicon)[^/]*\.(js|css|ttf)$/;

/** React Router publishes its production build without an export condition for it: use it in builds. */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: `${root}../node_modules/react-router/dist/production/index.mjs` },
  { find: /^react-router\/dom$/, replacement: `${root}../node_modules/react-router/dist/production/dom-export.mjs` },
];

/**
 * The shop's domain rules, shared with the server (server/src/rules): `@rules` (limits, patterns,
 * card and delivery rules), `@rules/schemas` (the zod input schemas), `@rules/slug`.
 */
const sharedRules = [
  { find: /^@rules$/, replacement: `${root}../server/src/rules/index.ts` },
  { find: /^@rules\/(schemas|slug)$/, replacement: `${root}../server/src/rules/$1.ts` },
];

/**
 * The storefront's scripts: the entry, a chunk per start-up stage (React; Apollo; the app shell and
 * what the storefront's pages share), and one per page the server draws (gateway/src/page-chunks.ts).
 */
const storefront = storefrontChunks({
  entry: `${root}index.html`,
  shell: `${root}src/app/start.tsx`,
  pages: {
    home: `${root}src/storefront/home/HomePage.tsx`,
    shop: `${root}src/storefront/shop/ShopPage.tsx`,
    product: `${root}src/storefront/product/ProductOrderPage.tsx`,
    blog: `${root}src/blog/BlogListPage.tsx`,
    'blog-post': `${root}src/blog/BlogPostPage.tsx`,
    developers: `${root}src/storefront/developers/DevelopersPage.tsx`,
  },
  screens: ['cart/CartPage', 'checkout/PaymentsPage', 'order/OrderConfirmationPage', 'membership/MembershipPage', 'gift-cards/GiftCardPage', 'gift-cards/GiftCardBalancePage', 'account/AccountPage', 'account-settings/AccountSettingsPage', 'contacts/ContactsPage'].map(
    (screen) => `${root}src/storefront/${screen}.tsx`,
  ),
  stages: [
    { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
    { name: 'apollo', test: /[\\/]node_modules[\\/](@apollo|graphql|rxjs|@wry|optimism|tslib|apollo-upload-client|extract-files|is-plain-obj)[\\/]|[\\/]src[\\/]apollo[\\/](client|errors)\.ts$/ },
  ],
  // The server's message, code and field of a failed operation: a few hundred bytes that the blog post,
  // checkout, account and membership pages and the console all read; and a card's recipients as a
  // sentence names them, which the product page, the cart and checkout say (left to the product page's
  // chunk, it would make checkout fetch the product page); and the membership and discount rows of a
  // quote, which the cart and checkout both show.
  common: /[\\/]src[\\/](apollo[\\/]errors|storefront[\\/]cart[\\/](recipient-names|QuoteAdjustments))\.tsx?$/,
});

/** Each language's catalogue in parts, loaded with the code that shows them: the app's, then each screen's. */
const texts = catalogueParts({
  src: `${root}src/`,
  shell: `${root}src/app/start.tsx`,
  catalogues: `${root}src/i18n/messages`,
  languages: ['de', 'fr', 'es'],
  runtime: `${root}src/i18n/page-intl.ts`,
  // The console, the blog's editor and the staff's invitation have one, English, address (gateway/src/page-locale.ts).
  english: /[\\/]src[\\/](admin[\\/]|blog[\\/]editor[\\/]|auth[\\/]StaffAcceptPage\.tsx$)/,
});

/**
 * The server's renderer of the storefront (`vite build --ssr`, see web/src/entry-server.tsx): one
 * self-contained module for Node in web/ssr, every dependency bundled in (Blueprint's ESM files
 * are not loadable by Node as they are), no compressed copies and no manifest.
 */
const ssrBuild = defineConfig({
  root,
  resolve: { alias: [...sharedRules, ...reactRouterProduction] },
  plugins: [blueprintIconNames(), react(), oneByteSource()],
  ssr: { noExternal: true },
  // The renderer runs in built shops only: React's production builds alone are bundled (its
  // development builds, chosen at run time otherwise, were most of the module's size).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    ssr: `${root}src/entry-server.tsx`,
    outDir: 'ssr',
    emptyOutDir: true,
    copyPublicDir: false,
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      input: { 'entry-server': `${root}src/entry-server.tsx` },
      output: { entryFileNames: '[name].js' },
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});

export default defineConfig(({ command, isSsrBuild }) => isSsrBuild ? ssrBuild : ({
  root,
  resolve: { alias: command === 'build' ? [...sharedRules, ...reactRouterProduction, aliasNoParser] : sharedRules },
  plugins: [
    blueprintIconNames(),
    precompiledMessages({ src: `${root}src/` }),
    graphqlDocuments(`${root}src/apollo/generated/graphql.ts`),
    storefront.plugin,
    texts,
    react(),
    // Every text asset also as .br and .gz beside it, served by the gateway to browsers that accept them.
    // Brotli at its best for what shoppers load; the explorer's editor (megabytes, rarely opened) faster.
    compression({
      include: COMPRESSIBLE,
      exclude: EXPLORER_ASSETS,
      threshold: 512,
      skipIfLargerOrEqual: true,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
    }),
    compression({
      include: EXPLORER_ASSETS,
      threshold: 512,
      skipIfLargerOrEqual: true,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }), defineAlgorithm('gzip', { level: 6 })],
    }),
    // What weighs what: `npm run analyze` writes web/dist/bundle-report.html (web/dist is not in git).
    process.env.BUNDLE_REPORT !== '1' ? null : visualizer({ filename: `${root}dist/bundle-report.html`, gzipSize: true, brotliSize: true, template: 'treemap' }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    // .vite/manifest.json: the server preloads a page's own chunks with its HTML (gateway/src/page-chunks.ts).
    manifest: true,
    rollupOptions: {
      input: { main: `${root}index.html`, explorer: `${root}explorer.html` },
      output: { codeSplitting: { groups: storefront.groups } },
      onwarn(warning, warn) {
        // GraphiQL's packages carry React Compiler directives that a bundle need not keep.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  optimizeDeps: {
    // These import Monaco's workers with `?worker`, which Vite handles only outside pre-bundling.
    exclude: ['graphiql/setup-workers/vite', '@graphiql/react/setup-workers/vite'],
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/graphql', '/api', '/ecards', '/blog/rss.xml', '/healthz', '/readyz', '/sitemap.xml', '/robots.txt'].map((path) => [path, backend])),
  },
}));
