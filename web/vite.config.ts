import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const backend = 'http://localhost:4000';

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      input: { main: `${root}index.html`, explorer: `${root}explorer.html` },
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
    proxy: Object.fromEntries(['/graphql', '/api', '/ecards', '/blog/rss.xml', '/healthz', '/readyz'].map((path) => [path, backend])),
  },
});
