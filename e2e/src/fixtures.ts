// The one place e2e tests get their fixtures: the proxy's key (read from the stack's data
// folder, to prove it never reaches the browser) and a recorder of browser traffic.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, type Page } from "@playwright/test";
import type { Role } from "@vics/shared";
import {
  createStaffUser,
  proxyStorePath,
  type SessionCookie,
} from "./auth/sign-in.ts";
import { stackEnv } from "./stack-env.ts";

export interface RecordedExchange {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

function recordTraffic(page: Page): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  page.on("response", async (response) => {
    const request = response.request();
    let responseBody = "";
    try {
      responseBody = (await response.body()).toString("utf8");
    } catch {
      // Redirects and aborted loads have no body.
    }
    exchanges.push({
      url: request.url(),
      method: request.method(),
      requestHeaders: await request.allHeaders(),
      requestBody: request.postData() ?? "",
      status: response.status(),
      responseHeaders: await response.allHeaders(),
      responseBody,
    });
  });
  return exchanges;
}

/** One user per role per stack, made once per worker: every journey's browser is signed in. */
const users = new Map<string, Promise<SessionCookie>>();

export const test = base.extend<{
  proxyKey: string;
  traffic: RecordedExchange[];
  /** The role the journey's browser is signed in as; null: signed out. */
  signedInAs: Role | null;
  /** The session of the journey's browser, for the stack it browses. */
  sessionFor: (role: Role) => Promise<SessionCookie>;
}>({
  signedInAs: ["admin", { option: true }],
  sessionFor: async ({ baseURL }, use) => {
    const { dataDir } = await stackEnv();
    await use((role) => {
      const key = `${baseURL} ${role}`;
      let session = users.get(key);
      if (!session) {
        session = createStaffUser(baseURL!, proxyStorePath(dataDir), role).then(
          (user) => user.session,
        );
        users.set(key, session);
      }
      return session;
    });
  },
  context: async ({ context, signedInAs, sessionFor, baseURL }, use) => {
    if (signedInAs) {
      const session = await sessionFor(signedInAs);
      await context.addCookies([{ ...session, url: baseURL! }]);
    }
    await use(context);
  },
  // Playwright needs the destructuring pattern even when no fixture is used.
  // eslint-disable-next-line no-empty-pattern
  proxyKey: async ({}, use) => {
    const { dataDir } = await stackEnv();
    await use(readFileSync(join(dataDir, "proxy-api-key"), "utf8").trim());
  },
  traffic: async ({ page }, use) => {
    await use(recordTraffic(page));
  },
});

export { expect } from "@playwright/test";
