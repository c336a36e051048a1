// The whole stack for a load run (`npm run soak`, `npm run bench`): the real service on a
// database of its own, a key on the plan asked for, and the real proxy in front of it, each a
// process of its own on a free loopback port, so their memory can be read and they stop cleanly.
import { execFileSync, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { HEALTH_PATH, type Plan } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { startChild, type Child } from "./children.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export interface Stack {
  serviceUrl: string;
  /** The proxy's base URL, ending with "/". */
  proxyUrl: string;
  service: ChildProcess;
  proxy: ChildProcess;
  stop(): Promise<void>;
}

export interface StackOptions {
  dataDir: string;
  plan?: Plan;
}

/** A Node server of this repository on a free loopback port, once it answers `readyPath`. */
async function startServer(
  script: string,
  readyPath: string,
  env: Record<string, string>,
): Promise<Child> {
  const port = await freePort();
  return startChild({
    label: script,
    command: process.execPath,
    args: [join(ROOT, script)],
    cwd: ROOT,
    port,
    readyPath,
    env: { HOST: "127.0.0.1", PORT: String(port), ...env },
    // The service seeds its database on a first start.
    timeoutMs: 120_000,
  });
}

/** A new key on `plan`, made with the keys command as an operator would; returns the key. */
export function createKey(
  databasePath: string,
  plan: Plan,
  name = `load-${Date.now()}`,
): string {
  const output = execFileSync(
    process.execPath,
    ["service/src/keys-cli.ts", "create", "--plan", plan, "--name", name],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: databasePath },
      encoding: "utf8",
    },
  );
  const key = output.trim().split("\n").at(-1)?.trim();
  if (!key) throw new Error("The keys command printed no key");
  return key;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const databasePath = join(options.dataDir, "vics.sqlite");
  const service = await startServer("service/src/index.ts", HEALTH_PATH, {
    DATABASE_PATH: databasePath,
  });
  let proxy: Child;
  try {
    proxy = await startServer("proxy/src/index.ts", "/", {
      UPSTREAM_URL: service.url,
      UPSTREAM_API_KEY: createKey(databasePath, options.plan ?? "internal"),
      // Empty means unset to the proxy: one key source only, whatever the shell exported.
      UPSTREAM_API_KEY_FILE: "",
    });
  } catch (error) {
    await service.stop();
    throw error;
  }
  return {
    serviceUrl: service.url,
    proxyUrl: `${proxy.url}/`,
    service: service.process,
    proxy: proxy.process,
    async stop() {
      await proxy.stop();
      await service.stop();
    },
  };
}
