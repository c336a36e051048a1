// The whole stack for a load run (`npm run soak`, `npm run bench`): the real service on a
// database of its own, a key on the plan asked for, and the real proxy in front of it, each a
// process of its own on a free loopback port, so their memory can be read and they stop cleanly.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { join, resolve } from "node:path";
import { HEALTH_PATH, type Plan } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";

const ROOT = resolve(import.meta.dirname, "../..");

export interface Stack {
  serviceUrl: string;
  /** The proxy's base URL, ending with "/". */
  proxyUrl: string;
  /** The key the proxy sends; for tests that call the service directly too. */
  key: string;
  service: ChildProcess;
  proxy: ChildProcess;
  stop(): Promise<void>;
}

export interface StackOptions {
  dataDir: string;
  plan?: Plan;
  /** Extra environment for each process. */
  serviceEnv?: Record<string, string>;
  proxyEnv?: Record<string, string>;
}

/** Starts a process on `port` and resolves once `readyPath` answers at all. */
async function listening(
  script: string,
  port: number,
  readyPath: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    // Logs are drained, not kept: a load run writes a line per request.
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${script} exited (${child.exitCode}):\n${errors}`);
    try {
      const response = await fetch(url + readyPath);
      await response.body?.cancel();
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`${script} did not answer within 120 s:\n${errors}`);
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

/** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const databasePath = join(options.dataDir, "vics.sqlite");
  const service = await listening(
    "service/src/index.ts",
    await freePort(),
    HEALTH_PATH,
    { DATABASE_PATH: databasePath, ...options.serviceEnv },
  );
  const key = createKey(databasePath, options.plan ?? "internal");
  let proxy: { child: ChildProcess; url: string };
  try {
    proxy = await listening("proxy/src/index.ts", await freePort(), "/", {
      UPSTREAM_URL: service.url,
      UPSTREAM_API_KEY: key,
      ...options.proxyEnv,
    });
  } catch (error) {
    await stopChild(service.child);
    throw error;
  }
  return {
    serviceUrl: service.url,
    proxyUrl: `${proxy.url}/`,
    key,
    service: service.child,
    proxy: proxy.child,
    async stop() {
      await stopChild(proxy.child);
      await stopChild(service.child);
    },
  };
}
