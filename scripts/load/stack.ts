// The whole stack for a load run (`npm run soak`, `npm run bench`): the real service on a
// database of its own, a key on the plan asked for, and the real proxy in front of it, each a
// process of its own on a free loopback port, so their memory can be read and they stop cleanly.
import { execFileSync, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import {
  AUTH_PATHS,
  CLIENT_HEADER,
  HEALTH_PATH,
  type Plan,
} from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { createApiKey } from "../start/proxy-key.ts";
import { startChild, type Child } from "./children.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export interface Stack {
  serviceUrl: string;
  /** The proxy's base URL, ending with "/". */
  proxyUrl: string;
  service: ChildProcess;
  proxy: ChildProcess;
  /** The Cookie header of a signed-in fleet user's session on the proxy. */
  cookie: string;
  stop(): Promise<void>;
}

export interface StackOptions {
  dataDir: string;
  plan?: Plan;
}

/** A Node server of this repository on a free loopback port, once it answers `readyPath`. */
export async function startServer(
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
export const createKey = (
  databasePath: string,
  plan: Plan,
  name = `load-${Date.now()}`,
): string => createApiKey(ROOT, { DATABASE_PATH: databasePath }, plan, name);

/**
 * A fleet user on the proxy's store, made with `scripts/users` as an admin would, signed in
 * through their invitation link; returns the session's Cookie header.
 */
export async function signedInCookie(
  proxyUrl: string,
  proxyDatabasePath: string,
): Promise<string> {
  const output = execFileSync(
    process.execPath,
    [
      "proxy/src/users-cli.ts",
      "create",
      "--email",
      `load-${Date.now()}@example.org`,
      "--role",
      "fleet",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PROXY_DATABASE_PATH: proxyDatabasePath },
      encoding: "utf8",
    },
  );
  const token = /#token=([A-Za-z0-9_-]{43})/.exec(output)?.[1];
  if (!token) throw new Error("scripts/users printed no invitation link");
  const response = await fetch(new URL(AUTH_PATHS.setPassword, proxyUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "load" },
    body: JSON.stringify({ token, password: `load ${token.slice(0, 16)}` }),
  });
  const cookie = response.headers.get("Set-Cookie")?.split(";")[0];
  if (response.status !== 200 || !cookie)
    throw new Error(`signing in for the load run failed (${response.status})`);
  return cookie;
}

/** Loads here are bounded by requests and time, not by a person's own limit. */
const LOAD_USER_LIMIT = String(1_000_000_000);

/**
 * The environment a load run's proxy needs besides its upstream: its own store at
 * `proxyDatabasePath` (never the repository's data/proxy.sqlite), and per-user limits no run
 * reaches.
 */
export const loadProxyEnv = (
  proxyDatabasePath: string,
): Record<string, string> => ({
  PROXY_DATABASE_PATH: proxyDatabasePath,
  USER_LOOKUPS_PER_MINUTE_STAFF: LOAD_USER_LIMIT,
  USER_LOOKUPS_PER_MINUTE_FLEET: LOAD_USER_LIMIT,
  USER_LOOKUPS_PER_MINUTE_ADMIN: LOAD_USER_LIMIT,
});

/** The service and the proxy of a run, on their own databases in `dataDir`. */
export interface Servers {
  service: Child;
  proxy: Child;
  /** The proxy's store, for signedInCookie. */
  proxyDatabasePath: string;
}

/**
 * The real service on a database of its own in `dataDir`, a key on `plan` (internal unless
 * said), and the real proxy in front of it; `serviceEnv` and `proxyEnv` add to each one's.
 */
export async function startServers(options: {
  dataDir: string;
  plan?: Plan;
  serviceEnv?: Record<string, string>;
  proxyEnv?: Record<string, string>;
}): Promise<Servers> {
  const databasePath = join(options.dataDir, "vics.sqlite");
  const proxyDatabasePath = join(options.dataDir, "proxy.sqlite");
  const service = await startServer("service/src/index.ts", HEALTH_PATH, {
    DATABASE_PATH: databasePath,
    ...options.serviceEnv,
  });
  try {
    const proxy = await startServer("proxy/src/index.ts", "/", {
      UPSTREAM_URL: service.url,
      UPSTREAM_API_KEY: createKey(databasePath, options.plan ?? "internal"),
      // Empty means unset to the proxy: one key source only, whatever the shell exported.
      UPSTREAM_API_KEY_FILE: "",
      ...loadProxyEnv(proxyDatabasePath),
      ...options.proxyEnv,
    });
    return { service, proxy, proxyDatabasePath };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const { service, proxy, proxyDatabasePath } = await startServers(options);
  let cookie: string;
  try {
    cookie = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
  } catch (error) {
    await proxy.stop();
    await service.stop();
    throw error;
  }
  return {
    cookie,
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
