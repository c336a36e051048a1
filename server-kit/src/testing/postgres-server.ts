/**
 * `@vics/server-kit/testing/postgres-server`: a real PostgreSQL (Debian's `postgresql` package) on a
 * free loopback port and a folder of its own, for the store tests, the fault drills, the bench
 * and `npm run cluster`. Test and tool support, never imported by an app.
 *
 * initdb and postgres refuse to run as root: as root they run as the `postgres` user, through
 * setpriv (which execs, so a signal to the child reaches postgres itself).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "@vics/shared/testing/free-port";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";

/** The folder holding initdb and postgres: PG_BIN, else the newest of Debian's versions. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      "PostgreSQL is not installed: `apt-get install -y postgresql` (or set PG_BIN to the folder holding initdb)",
    );
  return join(root, versions[0]!, "bin");
}

const asRoot = () => process.getuid?.() === 0;

/** The command line, run as the postgres user when we are root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  if (!asRoot()) return [command, args];
  return [
    "setpriv",
    ["--reuid=postgres", "--regid=postgres", "--init-groups", command, ...args],
  ];
}

export interface PostgresOptions {
  /** Kept between runs (the cluster's data folder); default: a new temporary folder. */
  dataDir?: string;
  port?: number;
  /**
   * Tests trade durability for speed (fsync off); the cluster keeps PostgreSQL's defaults.
   * Default true.
   */
  fast?: boolean;
  /**
   * The superuser's password: connections over TCP then need a password (scram-sha-256), as on
   * a real server. Default: none, and loopback connections are trusted (tests).
   */
  superuserPassword?: string;
  /** Where postgres's own messages go; default: kept in memory for an error. */
  log?: (line: string) => void;
  /** More server settings, e.g. { shared_buffers: "1GB" } for the bench. */
  settings?: Record<string, string>;
  /**
   * A process group of its own: a terminal's Ctrl-C, which signals the whole foreground group,
   * then reaches only the program that started it, which stops it in its turn (`npm run
   * cluster` stops the replicas that use it first). Default false.
   */
  ownProcessGroup?: boolean;
}

export interface PostgresServer {
  port: number;
  dataDir: string;
  /** postgres://postgres@127.0.0.1:port/<database>: the superuser, trusted on loopback. */
  url(database?: string): string;
  /** A new empty database; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL as the superuser in `database` (default postgres), with `params` for $1... */
  query(
    sql: string,
    database?: string,
    params?: unknown[],
  ): Promise<pg.QueryResult>;
  /** Stops it (fast shutdown; SIGKILL with `crash`) and waits until it has gone. */
  stop(options?: { crash?: boolean }): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it and removes a temporary folder (immediate shutdown: nothing is kept to write). */
  close(): Promise<void>;
}

export async function startPostgres(
  options: PostgresOptions = {},
): Promise<PostgresServer> {
  const bin = postgresBin();
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? temporaryDataDir();
  const port = options.port ?? (await freePort());
  const fast = options.fast ?? true;
  let messages = "";
  const log =
    options.log ??
    ((line: string) => {
      messages = (messages + line).slice(-4000);
    });

  const password = options.superuserPassword;
  if (!existsSync(join(dataDir, "PG_VERSION")))
    initialise(bin, dataDir, password);

  let child: ChildProcess | undefined;
  const credentials =
    password === undefined
      ? "postgres"
      : `postgres:${encodeURIComponent(password)}`;
  const url = (database = "postgres") =>
    `postgres://${credentials}@127.0.0.1:${port}/${database}`;

  async function start() {
    // Already running: nothing to do. A second postgres on the same folder would refuse and
    // exit, and `child` would name that dead one, so the next stop() would leave the live
    // server running (a test's `finally` starting a server its body already started again).
    if (child && child.exitCode === null && child.signalCode === null) return;
    const settings = [
      `listen_addresses=127.0.0.1`,
      `port=${port}`,
      // The socket in its own folder: Debian's /var/run/postgresql may not exist or be ours.
      `unix_socket_directories=${dataDir}`,
      "max_connections=200",
      ...(fast
        ? ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        : []),
      ...Object.entries(options.settings ?? {}).map(
        ([name, value]) => `${name}=${value}`,
      ),
    ].flatMap((setting) => ["-c", setting]);
    const [command, args] = asPostgres(join(bin, "postgres"), [
      "-D",
      dataDir,
      ...settings,
    ]);
    const group = options.ownProcessGroup ?? false;
    const started = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      detached: group,
    });
    child = started;
    killOnExit(started, { group });
    started.stdout?.on("data", (chunk: Buffer) => log(chunk.toString()));
    started.stderr?.on("data", (chunk: Buffer) => log(chunk.toString()));
    await waitUntilAnswering(url(), started, () => messages);
  }

  async function stop({ crash = false, immediate = false } = {}) {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null)
      return;
    const exited = once(current, "exit");
    // SIGINT is PostgreSQL's fast shutdown: it ends the sessions and stops cleanly, after a
    // checkpoint that writes every changed page (seconds on a busy machine). SIGQUIT is its
    // immediate shutdown: no checkpoint, for a data folder about to be deleted.
    current.kill(crash ? "SIGKILL" : immediate ? "SIGQUIT" : "SIGINT");
    await exited;
    // After a SIGKILL the children of postgres may still hold the port a moment.
    if (crash) await waitForPortFree(port);
  }

  await start();
  return {
    port,
    dataDir,
    url,
    async createDatabase(name) {
      await query(url(), `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return url(name);
    },
    query: (sql, database, params) => query(url(database), sql, params),
    stop,
    start,
    async close() {
      // A temporary folder is deleted straight after: nothing needs writing to it first.
      await stop({ immediate: temporary });
      if (temporary)
        rmSync(join(dataDir, ".."), { recursive: true, force: true });
    },
  };
}

/**
 * The setup of a test file that runs on one real PostgreSQL, as `sharedRedis()` is for Redis:
 * called once at the file's top level, it starts the server before the file's tests (PostgreSQL
 * takes seconds to start on a busy machine) and closes it after them. Each test makes its own
 * database with `server().createDatabase(...)`. Closing waits up to 60 s: the shutdown checkpoint
 * and the folder's removal after a suite of many databases pass the default 10 s hook limit on a
 * busy machine.
 */
export function sharedPostgres(
  options: PostgresOptions = {},
): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres(options);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 60_000);
  return () => {
    if (!server)
      throw new Error("PostgreSQL is not started yet: call server() in a test");
    return server;
  };
}

/** A new folder under the system's temporary folder; the postgres user may search its parent. */
function temporaryDataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), "vics-pg-"));
  chmodSync(parent, 0o755);
  return join(parent, "data");
}

function initialise(bin: string, dataDir: string, password?: string) {
  // The folders above it searchable by all (umask permitting), the folder itself private.
  mkdirSync(join(dataDir, ".."), { recursive: true });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The postgres user must own its folder (the folders above it need only be searchable).
  if (asRoot()) chownSync(dataDir, postgresUid(), postgresUid("g"));
  // initdb reads the password from a file the postgres user can read; removed straight after.
  const passwordFile = join(
    mkdtempSync(join(tmpdir(), "vics-pg-init-")),
    "password",
  );
  if (password !== undefined) {
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (asRoot()) {
      chownSync(join(passwordFile, ".."), postgresUid(), postgresUid("g"));
      chownSync(passwordFile, postgresUid(), postgresUid("g"));
    }
  }
  const [command, args] = asPostgres(join(bin, "initdb"), [
    "-D",
    dataDir,
    "--username=postgres",
    ...(password === undefined
      ? ["--auth=trust"]
      : [
          "--auth-host=scram-sha-256",
          "--auth-local=peer",
          `--pwfile=${passwordFile}`,
        ]),
    "--encoding=UTF8",
    "--locale=C",
  ]);
  const result = spawnSync(command, args, { encoding: "utf8" });
  rmSync(join(passwordFile, ".."), { recursive: true, force: true });
  if (result.status !== 0)
    throw new Error(
      `initdb failed in ${dataDir}: ${result.error?.message ?? ""}${result.stderr}`,
    );
}

function postgresUid(kind: "u" | "g" = "u"): number {
  const result = spawnSync("id", [`-${kind}`, "postgres"], {
    encoding: "utf8",
  });
  const id = Number(result.stdout.trim());
  if (result.status !== 0 || !Number.isInteger(id))
    throw new Error(
      "There is no postgres user: install Debian's postgresql package",
    );
  return id;
}

async function query(url: string, sql: string, params?: unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  messages: () => string,
) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`postgres exited at start:\n${messages()}`);
    try {
      await query(url, "SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(
          `postgres did not answer within 60 s (${String(error)}):\n${messages()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function waitForPortFree(port: number) {
  const { createServer } = await import("node:net");
  for (let attempt = 0; attempt < 100; attempt++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
