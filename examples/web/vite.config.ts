/**
 * Vite settings of the example page. `npm run example` builds it with these (see support/example-web.ts);
 * `npx vite examples/web` serves it with hot reload against a gateway at VITE_GRAPHQL_URL.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  // Relative asset URLs: the bundle works from any path it is served under.
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
});
