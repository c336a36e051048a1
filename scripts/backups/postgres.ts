// A PostgreSQL store's backup and restore, with Debian's pg_dump and pg_restore. The counts and
// the dump read one snapshot: a REPEATABLE READ transaction exports it (pg_export_snapshot) and
// pg_dump --snapshot reads the same, so the manifest says exactly what the dump holds however
// much the servers write meanwhile. Sessions, one-time links and OIDC sign-ins under way are
// dumped as tables without rows (decision 068).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Select } from "./counts.ts";
import { LEFT_OUT_TABLES, noneLeftOut } from "./left-out.ts";
import type { LeftOut } from "./manifest.ts";

/**
 * Where pg_dump and pg_restore are: PG_BIN, else the newest of Debian's versions (a pg_dump
 * older than the server refuses it), else PATH's.
 */
export function postgresTool(name: "pg_dump" | "pg_restore"): string {
  if (process.env.PG_BIN) return join(process.env.PG_BIN, name);
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, "bin", name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length > 0 ? join(root, versions[0]!, "bin", name) : name;
}

/**
 * The URL for libpq's --dbname without its password, and the password in PGPASSWORD: a
 * command line is readable by every user of the machine (ps), an environment is not.
 */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: parsed.href,
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/** Runs a PostgreSQL tool; rejects with what it said on stderr when it fails. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(tool, args, {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    child.stderr.on("data", (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-4000);
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "ENOENT"
            ? `${tool} is not installed: \`apt-get install -y postgresql-client\` (a version at least the server's), or set PG_BIN to the folder holding it`
            : `${tool} did not start: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${tool} failed (exit ${code}): ${said.trim()}`)),
    );
  });
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: "vics-backup",
  });
  await client.connect();
  return client;
}

const clientSelect =
  (client: pg.Client): Select =>
  async (sql) =>
    (await client.query(sql)).rows as Array<Record<string, unknown>>;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Dumps the database at `url` into `file` (custom format); `read` counts in the dump's own
 * snapshot. Returns what was left out (the proxy's sessions, when `proxy`).
 */
export async function dumpPostgres(
  url: string,
  file: string,
  { proxy }: { proxy: boolean },
  read: (select: Select) => Promise<void>,
): Promise<LeftOut> {
  const client = await connect(url);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const { rows } = await client.query<{ snapshot: string; schema: string }>(
      "SELECT pg_export_snapshot() AS snapshot, current_schema() AS schema",
    );
    const { snapshot, schema } = rows[0]!;
    const select = clientSelect(client);
    const leftOut = noneLeftOut();
    if (proxy)
      for (const [name, table] of Object.entries(LEFT_OUT_TABLES)) {
        const [row] = await select(`SELECT count(*) AS n FROM ${table}`);
        leftOut[name as keyof LeftOut] = Number(row?.n);
      }
    await read(select);
    const { dbname, env } = libpq(url);
    await run(
      postgresTool("pg_dump"),
      [
        "--format=custom",
        `--snapshot=${snapshot}`,
        `--file=${file}`,
        ...(proxy
          ? Object.values(LEFT_OUT_TABLES).map(
              (table) =>
                `--exclude-table-data=${quoted(schema)}.${quoted(table)}`,
            )
          : []),
        `--dbname=${dbname}`,
      ],
      env,
    );
    await client.query("COMMIT");
    return leftOut;
  } finally {
    await client.end();
  }
}

/** Whether the database at `url` holds a table (or a view, a sequence) of its own. */
export async function postgresHoldsData(url: string): Promise<boolean> {
  const client = await connect(url);
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND s.nspname NOT IN ('pg_catalog', 'information_schema')
          AND s.nspname NOT LIKE 'pg\\_toast%' AND s.nspname NOT LIKE 'pg\\_temp%'`,
    );
    return Number(rows[0]!.n) > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores `file` into the database at `url`, in one transaction (all or nothing); `replace`
 * drops the dump's objects first. `read` counts what is there after.
 */
export async function restorePostgres(
  file: string,
  url: string,
  { replace }: { replace: boolean },
  read: (select: Select) => Promise<void>,
): Promise<void> {
  const { dbname, env } = libpq(url);
  await run(
    postgresTool("pg_restore"),
    [
      "--exit-on-error",
      "--single-transaction",
      ...(replace ? ["--clean", "--if-exists"] : []),
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
  const client = await connect(url);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    await read(clientSelect(client));
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}
