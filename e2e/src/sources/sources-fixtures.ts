// The live-source journeys' fixtures: a sources stack of their own per test (sources-stack.ts),
// the browser signed in to it. Per test, not per worker: a revoked key leaves the register
// paused for a minute and its last error shown, which the next journey must not inherit.
import { createStaffUser, proxyStorePath } from "../auth/sign-in.ts";
import { test as base } from "../fixtures.ts";
import { startSourcesStack, type SourcesStack } from "./sources-stack.ts";

export const test = base.extend<{ sources: SourcesStack }>({
  sources: [
    // Playwright needs the destructuring pattern even when no fixture is used.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startSourcesStack();
      await use(stack);
      await stack.close();
    },
    // Seeding takes seconds; the script first builds the web app if its sources changed.
    { timeout: 180_000 },
  ],
  // A user of the journey's role, made on the sources stack's own store.
  sessionFor: async ({ sources }, use) => {
    await use(async (role) => {
      const user = await createStaffUser(
        sources.url,
        proxyStorePath(sources.dataDir),
        role,
      );
      return user.session;
    });
  },
  // page.goto("/...") opens the sources stack's proxy, not the main stack's.
  baseURL: async ({ sources }, use) => {
    await use(sources.url);
  },
});

export { expect } from "@playwright/test";
