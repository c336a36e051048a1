// Vite builds the single-page app into web/dist; the same file configures vitest.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
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
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
