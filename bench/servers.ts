// The servers the bench starts beside the stack: a fresh API key per scenario (so none meets
// another's rate limit), a proxy holding one such key with a signed-in user of its own, and the
// bare Hono app.
import { join, resolve } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import {
  createKey as createStackKey,
  loadProxyEnv,
  signedInCookie,
} from "../scripts/load/stack.ts";
import { startChild, type Child } from "../scripts/load/children.ts";
import { createApiKey } from "../scripts/start/proxy-key.ts";

export const ROOT = resolve(import.meta.dirname, "..");

/** A new key on the internal plan (100,000 requests a minute), made as an operator would. */
export const createKey = (databasePath: string, scenario: string): string =>
  createStackKey(databasePath, "internal", `bench-${scenario}-${Date.now()}`);

/**
 * The same in the database `databaseEnv` names (DATABASE_URL for PostgreSQL), with the keys
 * command run as scripts/start/proxy-key.ts runs it; `name` must be new to that database.
 */
export const createKeyIn = (
  databaseEnv: Record<string, string>,
  name: string,
): string => createApiKey(ROOT, databaseEnv, "internal", name);

export interface BenchProxy extends Child {
  /** The Cookie header of a signed-in fleet user's session on this proxy. */
  cookie: string;
}

/**
 * The real proxy (or `script`, a bench's own build of it) in front of `serviceUrl`, holding
 * `key`, its store at `proxyDatabasePath` (a file of the run's own), and a fleet user signed in
 * on it. Its url has no trailing slash.
 */
export async function startProxy(
  serviceUrl: string,
  key: string,
  proxyDatabasePath: string,
  script = "proxy/src/index.ts",
  /** Added to its environment, e.g. NODE_OPTIONS for a CPU profile. */
  extraEnv: Record<string, string> = {},
): Promise<BenchProxy> {
  const port = await freePort();
  const proxy = await startChild({
    label: script,
    command: process.execPath,
    args: [join(ROOT, script)],
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
      ...loadProxyEnv(proxyDatabasePath),
      ...extraEnv,
    },
  });
  try {
    const cookie = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
    return { ...proxy, cookie };
  } catch (error) {
    await proxy.stop();
    throw error;
  }
}

/**
 * The proxy without sign-in's costs (bench/unsigned/server.ts) in front of `serviceUrl`,
 * holding `key`, with a fleet user signed in on its store at `proxyDatabasePath`.
 */
export async function startUnsignedProxy(
  serviceUrl: string,
  key: string,
  proxyDatabasePath: string,
): Promise<BenchProxy> {
  return startProxy(
    serviceUrl,
    key,
    proxyDatabasePath,
    "bench/unsigned/server.ts",
  );
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
