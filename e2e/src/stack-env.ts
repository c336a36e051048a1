// Where the e2e stack runs. Chosen once in Playwright's main process and handed to its workers
// through the environment, so every worker sees the same ports and data folder.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";

export interface StackEnv {
  port: number;
  servicePort: number;
  dataDir: string;
  baseUrl: string;
  chromiumPath: string | undefined;
}

export async function stackEnv(): Promise<StackEnv> {
  const env = process.env;
  env.VICS_E2E_PORT ||= String(await freePort());
  env.VICS_E2E_SERVICE_PORT ||= String(await freePort());
  env.VICS_E2E_DATA_DIR ||= mkdtempSync(join(tmpdir(), "vics-e2e-"));
  const port = Number(env.VICS_E2E_PORT);
  return {
    port,
    servicePort: Number(env.VICS_E2E_SERVICE_PORT),
    dataDir: env.VICS_E2E_DATA_DIR,
    baseUrl: `http://127.0.0.1:${port}`,
    // CHROMIUM_PATH=bundled uses the browser Playwright downloaded itself, where a machine has one.
    chromiumPath:
      env.CHROMIUM_PATH === "bundled"
        ? undefined
        : env.CHROMIUM_PATH || "/usr/bin/chromium",
  };
}
