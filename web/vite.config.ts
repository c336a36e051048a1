// Vite builds the single-page app into web/dist; the same file configures vitest.
import react from "@vitejs/plugin-react";
import { compression } from "vite-plugin-compression2";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    react(),
    // A Brotli (.br) and a gzip (.gz) copy beside each text file of the build, at their best
    // levels, once: the proxy (proxy/src/gateway/static/static-site.ts) and nginx (try_files for
    // .br, gzip_static for .gz: docs/decisions/071) send the one a browser takes, and nobody compresses on each request.
    // A copy no smaller than its file is not written, and then the file goes as it is.
    compression({
      algorithms: ["brotliCompress", "gzip"],
      include: /\.(html|js|mjs|css|json|svg|txt|xml|map)$/,
      skipIfLargerOrEqual: true,
      logLevel: "silent",
    }),
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // @vics/shared only declares things, so what a chunk does not use of it is left out:
        // the pages of every visit take its plate rules without its zod schemas, which load
        // with the first answer (src/lib/lazy-schemas.ts).
        // @vics/fleet likewise: a page takes only the rules it uses.
        moduleSideEffects: [
          { test: /\/(shared|fleet)\/src\//, sideEffects: false },
        ],
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // The libraries every page runs on, in one chunk that a release of the app's own
              // code leaves cached.
              name: "framework",
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack[\\/](query-core|react-query))[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    // In development the proxy (npm start, port 3000) adds the API key; Vite never sees it.
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/testing/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
