import { defineConfig } from "vitest/config";

// The runs of scripts/ and bench/ (npm run test:scripts, npm run drills).
export default defineConfig({
  // Every temporary folder of the run in one of its own, removed at its end.
  test: { globalSetup: ["./server-kit/src/testing/temp-folder-setup.ts"] },
});
