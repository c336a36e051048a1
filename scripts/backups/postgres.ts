// A PostgreSQL store's backup and restore, with Debian's pg_dump and pg_restore. The counts and
// the dump read one snapshot: a REPEATABLE READ transaction exports it (pg_export_snapshot) and
// pg_dump --snapshot reads the same, so the manifest says exactly what the dump holds however
// much the servers write meanwhile. Sessions, one-time links and OIDC sign-ins under way are
// dumped as tables without rows (decision 068).
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import pg from "pg";
import type { Select } from "./counts.ts";
import { LEFT_OUT_TABLES, noneLeftOut } from "./left-out.ts";
import type { LeftOut } from "./manifest.ts";

/**
 * Where pg_dump and pg_restore are: PG_BIN, else the newest of Debian's versions (a pg_dump
 * older than the server refuses it), else PATH's.
 */
export function postgresTool(name: "pg_dump" | "pg_restore" | "psql"): string {
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
 * command line is readable by every user of the machine (ps), an environment is not. A
 * `password` query parameter (which node-postgres reads too, over the user part's) moves there
 * as well. An `sslpassword` cannot: libpq reads it from no environment variable, and
 * node-postgres ignores it (the servers could not use the key either), so it is refused.
 */
export function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  if (parsed.searchParams.has("sslpassword"))
    throw new Error(
      "The database URL has an sslpassword: pg_dump and pg_restore would show it on their command line, and the servers ignore it. Give the servers and the backup a client key without a passphrase, readable by its user alone",
    );
  const password =
    parsed.searchParams.get("password") ?? decodeURIComponent(parsed.password);
  parsed.password = "";
  // The other parameters kept as they were written: re-encoding them could change their value.
  parsed.search = parsed.search
    .slice(1)
    .split("&")
    .filter(
      (pair) =>
        pair !== "" &&
        new URLSearchParams(pair).keys().next().value !== "password",
    )
    .join("&");
  return {
    dbname: parsed.href,
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/**
 * What a PostgreSQL tool said, fit to print: a failed COPY or constraint quotes the row
 * (`DETAIL:  Key (email)=(...)`, `CONTEXT:  COPY users, line 2: "...$argon2..."`, the
 * statement's `LINE 1:`), so those messages are left out with their continuation lines, and a
 * value quoted at a line's end (`invalid input syntax for type uuid: "..."`) is masked.
 */
export function toolSaid(stderr: string): string {
  const kept: string[] = [];
  let dropping = false;
  for (const line of stderr.split("\n")) {
    const text = line
      .replace(/^(?:psql|pg_restore|pg_dump)(?::\S*?:\d+)?:\s*/, "")
      .replace(/^(?:error|warning|detail|hint):\s*/, "");
    const newMessage = text !== line || /^[A-Z][A-Za-z ]*(?: \d+)?:/.test(text);
    if (newMessage)
      dropping =
        /^(?:DETAIL|CONTEXT|LINE \d+|STATEMENT|QUERY|Command was):/.test(text);
    if (dropping || (!newMessage && /^\s*\^\s*$/.test(line))) continue;
    kept.push(line.replace(/: ".*"$/, ': "..."'));
  }
  return kept.join("\n").trim();
}

/** A tool that would not start, in an operator's words. */
function toolError(tool: string, error: NodeJS.ErrnoException): Error {
  return new Error(
    error.code === "ENOENT"
      ? `${tool} is not installed: \`apt-get install -y postgresql-client\` (a version at least the server's), or set PG_BIN to the folder holding it`
      : `${tool} did not start: ${error.message}`,
  );
}

/** Runs a PostgreSQL tool; rejects with what it said on stderr when it fails. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(tool, args, {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    // A backup stopped by a signal exits at once: the tool goes with it.
    const stop = () => child.kill("SIGTERM");
    process.once("exit", stop);
    let said = "";
    let cut = false;
    child.stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.length > 4000) {
        said = said.slice(-4000);
        cut = true;
      }
    });
    child.on("error", (error) => {
      process.off("exit", stop);
      reject(toolError(tool, error));
    });
    child.on("close", (code) => {
      process.off("exit", stop);
      // A cut first line may have lost the start that marks it as a row's.
      const text = cut ? said.slice(said.indexOf("\n") + 1) : said;
      if (code === 0) resolve();
      else
        reject(new Error(`${tool} failed (exit ${code}): ${toolSaid(text)}`));
    });
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
 * Empties the database for --replace, in the restore's own transaction: every schema of its
 * own but public dropped, and everything in public (tables, views, sequences, routines, types).
 * pg_restore --clean cannot do it: it fails on partitioned tables (pg-boss's), and leaves
 * whatever the dump does not name.
 */
const EMPTY_DATABASE = `
DO $empty$
DECLARE item record;
BEGIN
  FOR item IN SELECT nspname FROM pg_namespace
    WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
  LOOP EXECUTE format('DROP SCHEMA %I CASCADE', item.nspname); END LOOP;
  FOR item IN SELECT c.relname, c.relkind FROM pg_class c
    JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  LOOP EXECUTE format('DROP %s IF EXISTS public.%I CASCADE',
    CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
      WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, item.relname);
  END LOOP;
  FOR item IN SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = 'public' AND c.relkind = 'S'
  LOOP EXECUTE format('DROP SEQUENCE IF EXISTS public.%I CASCADE', item.relname); END LOOP;
  FOR item IN SELECT p.oid::regprocedure AS routine FROM pg_proc p
    JOIN pg_namespace s ON s.oid = p.pronamespace WHERE s.nspname = 'public'
  LOOP EXECUTE format('DROP ROUTINE IF EXISTS %s CASCADE', item.routine); END LOOP;
  FOR item IN SELECT t.typname FROM pg_type t JOIN pg_namespace s ON s.oid = t.typnamespace
    WHERE s.nspname = 'public' AND t.typtype IN ('e', 'd', 'r', 'm', 'c')
      AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
  LOOP EXECUTE format('DROP TYPE IF EXISTS public.%I CASCADE', item.typname); END LOOP;
END
$empty$;
`;

/**
 * With --replace: the database emptied, then the dump restored, in one transaction. pg_restore
 * writes the dump as SQL into a private temporary folder (and must finish), then psql runs
 * EMPTY_DATABASE and that SQL as one transaction, stopping at the first error. The folder is
 * made beside the backup's folder, which is kept as the backups are, never in the system's
 * temporary folder (a RAM disk perhaps, others' to look into, and left full by a killed run).
 */
async function replaceWith(file: string, url: string): Promise<void> {
  const { dbname, env } = libpq(url);
  const folder = mkdtempSync(
    join(dirname(dirname(resolve(file))), "vics-restore-"),
  );
  try {
    const empty = join(folder, "empty.sql");
    const sql = join(folder, "restore.sql");
    writeFileSync(empty, EMPTY_DATABASE, { mode: 0o600 });
    await run(postgresTool("pg_restore"), [`--file=${sql}`, file], env);
    await run(
      postgresTool("psql"),
      [
        "--no-psqlrc",
        "--quiet",
        "--single-transaction",
        "--set=ON_ERROR_STOP=1",
        `--file=${empty}`,
        `--file=${sql}`,
        `--dbname=${dbname}`,
      ],
      env,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Restores `file` into the database at `url`, in one transaction (all or nothing); `replace`
 * empties the database first, in the same transaction. `read` counts what is there after.
 */
export async function restorePostgres(
  file: string,
  url: string,
  { replace }: { replace: boolean },
  read: (select: Select) => Promise<void>,
): Promise<void> {
  if (replace) await replaceWith(file, url);
  else {
    const { dbname, env } = libpq(url);
    await run(
      postgresTool("pg_restore"),
      ["--exit-on-error", "--single-transaction", `--dbname=${dbname}`, file],
      env,
    );
  }
  const client = await connect(url);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    await read(clientSelect(client));
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}
