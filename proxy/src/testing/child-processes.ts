/** The real service and proxy as child processes, for tests of signals (SIGHUP, SIGTERM). */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../env.ts";

export const PROXY_ENTRY = join(REPO_ROOT, "proxy/src/index.ts");
export const SERVICE_ENTRY = join(REPO_ROOT, "service/src/index.ts");
const KEYS_CLI = join(REPO_ROOT, "service/src/keys-cli.ts");

export type LogEvent = Record<string, unknown> & { msg?: string };

export interface RunningChild {
  process: ChildProcess;
  /** Every JSON line written to stdout so far. */
  events(): LogEvent[];
  stdout(): string;
  stderr(): string;
  /** The first event, logged before or after this call, that `matches`. */
  waitFor(matches: (event: LogEvent) => boolean): Promise<LogEvent>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `node <entry>` with only the given environment (and PATH). The proxy gets a store of its
 * own in a temporary folder unless PROXY_DATABASE_PATH is given: never the repository's.
 */
export function startNode(
  entry: string,
  env: Record<string, string>,
): RunningChild {
  const store =
    entry === PROXY_ENTRY && env.PROXY_DATABASE_PATH === undefined
      ? {
          PROXY_DATABASE_PATH: join(
            mkdtempSync(join(tmpdir(), "vics-proxy-store-")),
            "proxy.sqlite",
          ),
        }
      : {};
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? "", ...store, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const events: LogEvent[] = [];
  const waiting: Array<{
    matches: (event: LogEvent) => boolean;
    resolve: (event: LogEvent) => void;
  }> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split("\n");
    for (const line of lines.slice(events.length, -1)) {
      const event = JSON.parse(line) as LogEvent;
      events.push(event);
      for (const waiter of waiting.filter((w) => w.matches(event))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    events: () => [...events],
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (matches) => {
      const seen = events.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.push({ matches, resolve });
        void exited.then(() =>
          reject(new Error(`exited before the event; stderr: ${stderr}`)),
        );
      });
    },
    exited,
  };
}

export const byMessage = (message: string) => (event: LogEvent) =>
  event.msg === message;

/** `scripts/keys` against a database: its stdout's last line (the key, for `create`). */
export async function keysCli(
  databasePath: string,
  ...args: string[]
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [KEYS_CLI, ...args],
    { env: { PATH: process.env.PATH ?? "", DATABASE_PATH: databasePath } },
  );
  return stdout.trim().split("\n").at(-1) ?? "";
}

/** As the runbook says: a new file beside the old, then a rename, so no reader sees half. */
export function swapKeyFile(file: string, key: string): void {
  const next = join(dirname(file), ".key.next");
  writeFileSync(next, `${key}\n`, { mode: 0o600 });
  renameSync(next, file);
}

/** The one-time sign-in link the proxy prints on its first start on loopback. */
export const SIGN_IN_LINK =
  /(https?:\/\/\S+\/sign-in\/link#token=([A-Za-z0-9_-]{43}))/;

/** Waits for the first admin's sign-in link on the child's stderr. */
export async function waitForSignInLink(
  child: RunningChild,
  timeoutMs = 15_000,
): Promise<{ url: string; token: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = SIGN_IN_LINK.exec(child.stderr());
    if (found) return { url: found[1]!, token: found[2]! };
    if (Date.now() > deadline)
      throw new Error(`no sign-in link; stderr: ${child.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Signs in as the first admin through the link the proxy printed, as the web app does, and
 * returns the session's Cookie header.
 */
export async function signInAsFirstAdmin(
  child: RunningChild,
  proxyUrl: string,
): Promise<string> {
  const { token } = await waitForSignInLink(child);
  const response = await fetch(new URL(AUTH_PATHS.useSignInLink, proxyUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "test" },
    body: JSON.stringify({ token }),
  });
  if (response.status !== 200)
    throw new Error(
      `sign-in link refused: ${response.status} ${await response.text()}`,
    );
  const cookie = response.headers.get("Set-Cookie")?.split(";")[0];
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

/** What the child wrote to stderr besides the first admin's sign-in link paragraph. */
export function stderrBesidesSignInLink(child: RunningChild): string {
  return child
    .stderr()
    .replace(
      /\n {2}Sign in to VICS as the first admin[^\n]*\n {2}\S+\n {2}Then set a password[^\n]*\n\n/,
      "",
    );
}
