// The real service, `node src/index.ts`, in a child process, for the tests that signal or kill
// it; and what they read of its database file afterwards.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";

const SERVICE = join(import.meta.dirname, "..", "index.ts");
const KEYS_CLI = join(import.meta.dirname, "..", "keys-cli.ts");

export interface ServiceProcess {
  child: ChildProcess;
  /** Every JSON line the service wrote to stdout so far. */
  events(): Record<string, unknown>[];
  /** Resolves with the first event with this message (or rejects if the process ends first). */
  event(message: string): Promise<Record<string, unknown>>;
  /** The base URL, once it listens. */
  url: Promise<string>;
  /** Once it has exited and everything it wrote has been read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function startService(
  databasePath: string,
  env: Record<string, string> = {},
): ServiceProcess {
  const child = spawn(process.execPath, [SERVICE], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_PATH: databasePath,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  const waiting: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting.splice(0)) check();
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((resolve) =>
    // "close", not "exit": by then its output is all read, so events() has its last lines.
    child.on("close", (code, signal) => {
      resolve({ code, signal });
      for (const check of waiting.splice(0)) check();
    }),
  );
  const events = () =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{") && line.endsWith("}"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const event = (message: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = events().find((entry) => entry.msg === message);
        if (found) return resolve(found);
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(
            new Error(`service ended before "${message}": ${stderr}`),
          );
        waiting.push(check);
      };
      check();
    });
  const url = event("listening").then((listening) => String(listening.url));
  url.catch(() => {}); // awaited only by tests that expect a start
  return { child, events, event, url, exited, stderr: () => stderr };
}

/**
 * `scripts/keys create --plan internal` against the database; resolves with the new key. `env`
 * adds to the CLI's environment (e.g. SEED_SYNTHETIC_FLEET=false, so it seeds no fleet).
 */
export async function createKeyWithCli(
  databasePath: string,
  name: string,
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [KEYS_CLI, "create", "--plan", "internal", "--name", name],
    {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_PATH: databasePath,
        ...env,
      },
    },
  );
  return stdout.trimEnd().split("\n").at(-1) ?? "";
}

export const KEYS_CLI_PATH = KEYS_CLI;

/** Opens the file as the service does (WAL recovery included), runs `read`, closes it. */
export function readDatabase<T>(
  databasePath: string,
  read: (db: DatabaseSync) => T,
): T {
  const db = new DatabaseSync(databasePath);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function integrityCheck(db: DatabaseSync): string {
  return String(db.prepare("PRAGMA integrity_check").get()?.integrity_check);
}

export function tableNames(db: DatabaseSync): string[] {
  return db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => String(row.name));
}

export function rowCount(db: DatabaseSync, table: string): number {
  return Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
}

/** A SHA-256 over every row of `table` in primary-key order. */
export function tableChecksum(db: DatabaseSync, table: string): string {
  const hash = createHash("sha256");
  for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1`).iterate())
    hash.update(JSON.stringify(row));
  return hash.digest("hex");
}
