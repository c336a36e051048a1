import { defineConfig } from "vitest/config";

export default defineConfig({
  // Every temporary folder of the run in one of its own, removed at its end.
  test: { globalSetup: ["@vics/server-kit/testing/temp-folder-setup"] },
});
