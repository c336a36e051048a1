// The servers the bench starts beside the stack: a fresh API key per scenario (so none meets
// another's rate limit), a proxy holding one such key, and the bare Hono app.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { freePort, startChild, type Child } from "./children.ts";

export const ROOT = resolve(import.meta.dirname, "..");

/** A new key on the internal plan (100,000 requests a minute), made as an operator would. */
export function createKey(databasePath: string, scenario: string): string {
  const output = execFileSync(
    process.execPath,
    [
      "service/src/keys-cli.ts",
      "create",
      "--plan",
      "internal",
      "--name",
      `bench-${scenario}-${Date.now()}`,
    ],
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

/** The real proxy in front of `serviceUrl`, holding `key`. Its url has no trailing slash. */
export async function startProxy(serviceUrl: string, key: string) {
  const port = await freePort();
  return startChild({
    label: "proxy",
    command: process.execPath,
    args: [join(ROOT, "proxy/src/index.ts")],
    cwd: ROOT,
    port,
    readyPath: "/",
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      UPSTREAM_URL: serviceUrl,
      UPSTREAM_API_KEY: key,
      // Empty means unset to the proxy: one key source only, whatever the shell exported.
      UPSTREAM_API_KEY_FILE: "",
    },
  });
}

/** The framework's ceiling: Hono's "hello" on @hono/node-server, nothing else. */
export async function startHello(): Promise<Child> {
  const port = await freePort();
  return startChild({
    label: "hello app",
    command: process.execPath,
    args: [join(ROOT, "bench/hello-server.ts"), String(port)],
    cwd: ROOT,
    port,
    readyPath: "/",
  });
}
