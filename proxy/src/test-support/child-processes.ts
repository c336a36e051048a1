/** The real service and proxy as child processes, for tests of signals (SIGHUP, SIGTERM). */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
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

/** Runs `node <entry>` with only the given environment (and PATH). */
export function startNode(
  entry: string,
  env: Record<string, string>,
): RunningChild {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? "", ...env },
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
