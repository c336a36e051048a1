// Journeys over the whole stack: the real service on a fresh temporary database and the real
// proxy serving the built web app, started by the same script as `npm start`, in Debian's
// Chromium (CHROMIUM_PATH overrides it, e.g. for Playwright's own browsers).
import { defineConfig, devices } from "@playwright/test";
import { stackEnv } from "./src/stack-env.ts";

const stack = await stackEnv();

const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: stack.chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "./src",
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["html", { open: "never", outputFolder: "playwright-report" }],
  ],
  use: {
    baseURL: stack.baseUrl,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testMatch: /\.spec\.ts$/,
      // The fault, cluster and live-source journeys run over stacks of their own: projects below.
      testIgnore: /[\\/](faults|cluster|sources)[\\/]/,
      use: browser,
    },
    // After every journey: what they left in the logs (see logs.check.ts).
    { name: "logs", testMatch: /logs\.check\.ts$/, dependencies: ["chromium"] },
    // Fault journeys: the browser's side of every upstream fault, over a fault-injecting
    // upstream and a proxy of their own (src/faults/fault-stack.ts), not the stack below.
    {
      name: "faults",
      testMatch: /[\\/]faults[\\/].*\.spec\.ts$/,
      use: browser,
    },
    // The signed-in journeys once through `npm run cluster`'s https URL (src/cluster/).
    {
      name: "cluster",
      testMatch: /[\\/]cluster[\\/].*\.spec\.ts$/,
      // Ten processes on the machine's cores beside the browser and the main stack.
      timeout: 120_000,
      use: browser,
    },
    // The live registers' journeys: a stack of their own per test with the DVLA source on,
    // calling the VES stand-in (src/sources/sources-stack.ts), not the stack below.
    {
      name: "sources",
      testMatch: /[\\/]sources[\\/].*\.spec\.ts$/,
      use: browser,
    },
  ],
  webServer: {
    command: "node ../scripts/start.ts",
    url: stack.baseUrl,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(stack.port),
      SERVICE_PORT: String(stack.servicePort),
      DATA_DIR: stack.dataDir,
    },
  },
});
