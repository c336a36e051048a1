// The cluster journeys' fixture: `npm run cluster` as a team runs it (PostgreSQL, Redis, three
// services, two proxies, nginx with TLS from its own certificate), started once per worker in a
// temporary folder, every test browsing its https URL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Role } from "@vics/shared";
import { usersCliIn } from "../auth/sign-in.ts";
import { test as base } from "../fixtures.ts";
import {
  startCluster,
  type Cluster,
} from "../../../scripts/cluster/start-cluster.ts";

export const test = base.extend<
  { invite: (role: Role) => Promise<{ email: string; link: string }> },
  { cluster: Cluster }
>({
  cluster: [
    // Playwright needs the destructuring pattern even when no fixture is used.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), "vics-e2e-cluster-"));
      const cluster = await startCluster({
        dataDir,
        httpsPort: 0,
        quiet: true,
      });
      await use(cluster);
      await cluster.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 300_000 },
  ],
  /** A new user of `role`, made with `scripts/users` on the cluster's PostgreSQL; their link. */
  invite: async ({ cluster }, use) => {
    await use(async (role) => {
      const email = `e2e-${role}-${Date.now()}@example.org`;
      const stdout = await usersCliIn(
        cluster.proxyEnv,
        "create",
        "--email",
        email,
        "--role",
        role,
      );
      const link = /(https:\S+#token=[A-Za-z0-9_-]{43})/.exec(stdout)?.[1];
      if (!link) throw new Error(`no link in: ${stdout}`);
      return { email, link };
    });
  },
  signedInAs: null,
  baseURL: async ({ cluster }, use) => {
    await use(cluster.url);
  },
  // The certificate is the cluster's own, made on its first run: no CA a browser knows.
  ignoreHTTPSErrors: true,
});

export { expect } from "@playwright/test";
