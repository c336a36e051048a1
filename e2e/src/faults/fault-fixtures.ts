// The fault journeys' fixtures: one fault stack per worker (see fault-stack.ts), every test
// browsing that stack's proxy and starting with an upstream that answers.
import { test as base } from "../fixtures.ts";
import { startFaultStack, type FaultStack } from "./fault-stack.ts";

export const test = base.extend<
  { faults: FaultStack },
  { faultStack: FaultStack }
>({
  faultStack: [
    // Playwright needs the destructuring pattern even when no fixture is used.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { stack, close } = await startFaultStack();
      await use(stack);
      await close();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  faults: async ({ faultStack }, use) => {
    // Whatever the last test left switched on, this one starts with answers.
    await faultStack.upstream.use("answer");
    await use(faultStack);
    await faultStack.upstream.use("answer");
  },
  // The browser is signed in to the fault stack's proxy, as its first admin.
  sessionFor: async ({ faultStack }, use) => {
    await use(async () => faultStack.session);
  },
  // page.goto("/...") opens the fault stack's proxy, not the main stack's.
  baseURL: async ({ faultStack }, use) => {
    await use(faultStack.proxyUrl);
  },
});

export { expect } from "@playwright/test";
