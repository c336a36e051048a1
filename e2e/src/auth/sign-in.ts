// How the journeys get a signed-in browser: a user made with `scripts/users create` on the
// stack's own store (as an admin would, from a shell), whose invitation link sets a password
// through the proxy's API, as the web app's set-password page does.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { AUTH_PATHS, CLIENT_HEADER, type Role } from "@vics/shared";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");

export interface SessionCookie {
  name: string;
  value: string;
}

export interface StaffUser {
  email: string;
  password: string;
  role: Role;
}

const TOKEN = /#token=([A-Za-z0-9_-]{43})/;

/** `scripts/users` on the store that `storeEnv` names (a file, or a cluster's PostgreSQL). */
export async function usersCliIn(
  storeEnv: Record<string, string>,
  ...args: string[]
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(REPO_ROOT, "proxy/src/users-cli.ts"), ...args],
    { env: { PATH: process.env.PATH ?? "", ...storeEnv } },
  );
  return stdout;
}

/** `scripts/users` on a store file; its stdout. */
export const usersCli = (databasePath: string, ...args: string[]) =>
  usersCliIn({ PROXY_DATABASE_PATH: databasePath }, ...args);

/** The token of the one-time link in some text (a CLI's output, a page's link). */
export function linkToken(text: string): string {
  const found = TOKEN.exec(text);
  if (!found) throw new Error(`no one-time link in: ${text}`);
  return found[1]!;
}

async function postJson(baseUrl: string, path: string, body: unknown) {
  return fetch(new URL(path, baseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "e2e" },
    body: JSON.stringify(body),
  });
}

function sessionOf(response: Response): SessionCookie {
  const [pair] = (response.headers.get("Set-Cookie") ?? "").split(";");
  const [name, value] = (pair ?? "").split("=");
  if (!name || !value)
    throw new Error(`no session cookie (HTTP ${response.status})`);
  return { name, value };
}

/** A new user of `role` on the stack's store, with a password set through their invitation. */
export async function createStaffUser(
  baseUrl: string,
  databasePath: string,
  role: Role,
  email = `e2e-${role}-${randomBytes(4).toString("hex")}@example.org`,
): Promise<StaffUser & { session: SessionCookie }> {
  const output = await usersCli(
    databasePath,
    "create",
    "--email",
    email,
    "--role",
    role,
    "--name",
    `E2E ${role}`,
  );
  const password = `e2e ${randomBytes(12).toString("base64url")}`;
  const response = await postJson(baseUrl, AUTH_PATHS.setPassword, {
    token: linkToken(output),
    password,
  });
  if (response.status !== 200)
    throw new Error(
      `set-password: ${response.status} ${await response.text()}`,
    );
  return { email, password, role, session: sessionOf(response) };
}

/** Signs in with a one-time sign-in link's token (the first admin's, from `npm start`). */
export async function signInWithLinkToken(
  baseUrl: string,
  token: string,
): Promise<SessionCookie> {
  const response = await postJson(baseUrl, AUTH_PATHS.useSignInLink, { token });
  if (response.status !== 200)
    throw new Error(
      `sign-in link: ${response.status} ${await response.text()}`,
    );
  return sessionOf(response);
}

/** Where the main stack keeps the proxy's store (scripts/start.ts: DATA_DIR/proxy.sqlite). */
export const proxyStorePath = (dataDir: string) =>
  join(dataDir, "proxy.sqlite");

const apiSessions = new Map<string, Promise<string>>();

/**
 * A Cookie header for the test's own API calls to the main stack (a fleet user's), made once
 * per worker: the journeys' data helpers ask through the proxy as a signed-in browser does.
 */
export function stackCookie(baseUrl: string, dataDir: string): Promise<string> {
  let cookie = apiSessions.get(baseUrl);
  if (!cookie) {
    cookie = createStaffUser(baseUrl, proxyStorePath(dataDir), "fleet").then(
      ({ session }) => `${session.name}=${session.value}`,
    );
    apiSessions.set(baseUrl, cookie);
  }
  return cookie;
}
