// The backup drill (issue 37, point 3), on SQLite and on PostgreSQL: the real service and proxy
// run, with users, a saved fleet and audit events; a fleet run (bulk checks through the proxy,
// signed in) goes on while `scripts/backup` copies both stores; `scripts/restore` puts the copy
// into new files or new databases; the product starts on them, and what it holds is what the
// manifest says was there at the moment of the backup, with no session.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER, FLEET_PATHS, paths } from "@vics/shared";
import {
  PROXY_ENTRY,
  SERVICE_ENTRY,
  byMessage,
  startNode,
  type RunningChild,
} from "@vics/proxy/testing/child-processes";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { runCommand } from "../service/src/testing/run-command.ts";
import {
  countStore,
  type ProxyCounts,
  type Select,
  type ServiceCounts,
} from "./backups/counts.ts";
import { readManifest } from "./backups/manifest.ts";
import { cli } from "./backups/testing/cli.ts";

const ROOT = join(import.meta.dirname, "..");
const BACKUP = join(ROOT, "scripts/backup");
const RESTORE = join(ROOT, "scripts/restore");
const PASSWORD = "Drill-restore-7419-quartz-lantern";
const ADMIN = "admin@drill.example";

const children: RunningChild[] = [];
const postgres = sharedPostgres();
const folders: string[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.process.exitCode === null) child.process.kill("SIGKILL");
});
afterAll(() => {
  for (const folder of folders)
    rmSync(folder, { recursive: true, force: true });
});

/** Where a server's store is: its variables, and a way to read it from this process. */
interface Store {
  env: Record<string, string>;
  read<T>(use: (select: Select) => Promise<T>): Promise<T>;
}

function sqliteStore(variable: string, path: string): Store {
  return {
    env: { [variable]: path },
    async read(use) {
      const db = new DatabaseSync(path, { readOnly: true, timeout: 10_000 });
      try {
        return await use(
          async (sql) =>
            db.prepare(sql).all() as Array<Record<string, unknown>>,
        );
      } finally {
        db.close();
      }
    },
  };
}

function postgresStore(url: string): Store {
  return {
    env: { DATABASE_URL: url },
    async read(use) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
        return await use(async (sql) => (await client.query(sql)).rows);
      } finally {
        await client.end();
      }
    },
  };
}

interface Stores {
  service: Store;
  proxy: Store;
}

const counts = async (stores: Stores) => ({
  service: (await stores.service.read((select) =>
    countStore("service", select),
  )) as ServiceCounts,
  proxy: (await stores.proxy.read((select) =>
    countStore("proxy", select),
  )) as ProxyCounts,
});

/** Each server's store in a systemd EnvironmentFile, as /etc/vics/*.env holds it. */
function envFiles(folder: string, stores: Stores) {
  const file = (name: string, env: Record<string, string>) => {
    const path = join(folder, `${name}.env`);
    writeFileSync(
      path,
      Object.entries(env)
        .map(([key, value]) => `${key}=${value}\n`)
        .join(""),
    );
    return path;
  };
  return [
    "--service-env",
    file("service", stores.service.env),
    "--proxy-env",
    file("proxy", stores.proxy.env),
  ];
}

const listening = async (child: RunningChild) =>
  String((await child.waitFor(byMessage("listening"))).url);

/** The service and the proxy in front of it, on `stores`, with the proxy's key. */
async function startProduct(stores: Stores, key: string, folder: string) {
  const service = startNode(SERVICE_ENTRY, {
    HOST: "127.0.0.1",
    PORT: "0",
    ...stores.service.env,
  });
  children.push(service);
  const serviceUrl = await listening(service);
  const proxy = startNode(PROXY_ENTRY, {
    HOST: "127.0.0.1",
    PORT: "0",
    UPSTREAM_URL: serviceUrl,
    UPSTREAM_API_KEY: key,
    WEB_DIST: mkdtempSync(join(folder, "web-")),
    USER_LOOKUPS_PER_MINUTE_ADMIN: "1000000",
    // Never used on PostgreSQL, but a file of the drill's own rather than a temporary one.
    PROXY_DATABASE_PATH: join(folder, "unused-proxy.sqlite"),
    ...stores.proxy.env,
  });
  children.push(proxy);
  const proxyUrl = await listening(proxy);
  return {
    proxyUrl,
    async stop() {
      for (const child of [proxy, service]) {
        child.process.kill("SIGTERM");
        expect((await child.exited).code).toBe(0);
      }
    },
  };
}

/** A request to the proxy as the web app makes it, signed in with `cookie`. */
function api(base: string, cookie = "") {
  return (path: string, method = "GET", body?: unknown) =>
    fetch(new URL(path, base), {
      method,
      headers: {
        [CLIENT_HEADER]: "backup-drill",
        ...(cookie ? { Cookie: cookie } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

async function signIn(base: string): Promise<string> {
  const response = await api(base)(AUTH_PATHS.signIn, "POST", {
    email: ADMIN,
    password: PASSWORD,
  });
  expect(response.status).toBe(200);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

const sortedUsers = async (call: ReturnType<typeof api>) => {
  const response = await call(AUTH_PATHS.users);
  expect(response.status).toBe(200);
  const { users } = (await response.json()) as {
    users: Array<{ email: string; role: string; state: string }>;
  };
  return users
    .map(({ email, role, state }) => ({ email, role, state }))
    .sort((a, b) => a.email.localeCompare(b.email));
};

const fleetsOf = async (call: ReturnType<typeof api>) => {
  const response = await call(FLEET_PATHS.fleets);
  expect(response.status).toBe(200);
  const { fleets } = (await response.json()) as {
    fleets: Array<{ name: string; vehicleCount: number }>;
  };
  return fleets.map(({ name, vehicleCount }) => ({ name, vehicleCount }));
};

/**
 * The drill, from empty stores (`live`) to the product on the restored ones (`restored`, which
 * must not exist yet, or be empty databases).
 */
async function drill(folder: string, live: Stores, restored: Stores) {
  // The stores as an operator makes them: the service's seeded, a key for the proxy, an admin.
  await cli(
    "service/src/db-cli.ts",
    ["seed", "--vehicles", "300"],
    live.service.env,
  );
  const key = (
    await cli(
      "service/src/keys-cli.ts",
      ["create", "--plan", "internal", "--name", "proxy"],
      live.service.env,
    )
  )
    .trim()
    .split("\n")
    .at(-1)!;
  const invite = await cli(
    "proxy/src/users-cli.ts",
    ["create", "--admin", "--email", ADMIN],
    live.proxy.env,
  );
  const token = /#token=([A-Za-z0-9_-]+)/.exec(invite)![1]!;
  const registrations = await live.service.read(async (select) =>
    (
      await select("SELECT registration FROM vehicles ORDER BY id LIMIT 60")
    ).map((row) => String(row.registration)),
  );

  const product = await startProduct(live, key, folder);
  const set = await api(product.proxyUrl)(AUTH_PATHS.setPassword, "POST", {
    token,
    password: PASSWORD,
  });
  expect(set.status).toBeLessThan(300);
  const cookie = await signIn(product.proxyUrl);
  const call = api(product.proxyUrl, cookie);
  for (const email of ["fleet@drill.example", "staff@drill.example"]) {
    const invited = await call(AUTH_PATHS.users, "POST", {
      email,
      role: email.startsWith("fleet") ? "fleet" : "staff",
    });
    expect(invited.status).toBe(201);
  }
  const saved = await call(FLEET_PATHS.fleets, "POST", {
    name: "Vans",
    columns: ["Depot"],
    vehicles: registrations.map((registration, index) => ({
      registration,
      cells: [`Depot ${index % 3}`],
    })),
  });
  expect(saved.status).toBe(201);
  const users = await sortedUsers(call);
  const fleets = await fleetsOf(call);

  // The fleet run: its chunks of 20, one after another, until told to stop.
  let stopping = false;
  let firstCheck!: () => void;
  const started = new Promise<void>((resolve) => (firstCheck = resolve));
  const run = (async () => {
    for (
      let chunk = 0;
      !stopping;
      chunk = (chunk + 20) % registrations.length
    ) {
      const response = await call(`/api${paths.bulkCompliance()}`, "POST", {
        registrations: registrations.slice(chunk, chunk + 20),
      });
      expect(response.status).toBe(200);
      await response.body?.cancel();
      firstCheck();
    }
  })();
  // A first check that fails ends the drill with its own error, not a wait for the timeout.
  await Promise.race([started, run]);
  const before = await counts(live);
  const backup = await runCommand(
    BACKUP,
    [
      join(folder, "backups"),
      ...envFiles(mkdtempSync(join(folder, "live-env-")), live),
    ],
    { PATH: process.env.PATH ?? "" },
  );
  expect(backup).toMatchObject({ code: 0, stderr: "" });
  const after = await counts(live);
  stopping = true;
  await run;

  const backupFolder = backup.stdout.trim().split("\n").at(-1)!;
  const manifest = readManifest(backupFolder);
  const taken = manifest.counts;
  // The moment of the backup lies between the counts before and after it.
  expect(after.proxy.auditEvents).toBeGreaterThan(before.proxy.auditEvents);
  expect(taken.proxy.auditEvents).toBeGreaterThanOrEqual(
    before.proxy.auditEvents,
  );
  expect(taken.proxy.auditEvents).toBeLessThanOrEqual(after.proxy.auditEvents);
  expect(taken.proxy.lastAuditEvent!.id).toBeGreaterThanOrEqual(
    before.proxy.lastAuditEvent!.id,
  );
  expect(taken.proxy.lastAuditEvent!.id).toBeLessThanOrEqual(
    after.proxy.lastAuditEvent!.id,
  );
  expect(taken.proxy).toMatchObject({
    users: 3,
    fleets: 1,
    fleetVehicles: registrations.length,
    sessions: 0,
  });
  expect(taken.service).toEqual({
    vehicles: before.service.vehicles,
    apiKeys: 1,
  });
  // Left out: the admin's session, and the two invitations' links.
  expect(manifest.leftOut.sessions).toBeGreaterThanOrEqual(1);
  expect(manifest.leftOut.oneTimeLinks).toBeGreaterThanOrEqual(2);
  await product.stop();

  // Restored into new stores; the command checks its counts against the manifest.
  const restore = await runCommand(
    RESTORE,
    [
      backupFolder,
      ...envFiles(mkdtempSync(join(folder, "restored-env-")), restored),
    ],
    { PATH: process.env.PATH ?? "" },
  );
  expect(restore).toMatchObject({ code: 0, stderr: "" });
  expect(restore.stdout).toContain(
    "Verified: the restored stores hold what the manifest says",
  );
  expect(await counts(restored)).toEqual(taken);

  // The product on the restored stores: the old session is gone, the admin's password works,
  // the users, the fleet and its vehicles are those of the moment of the backup.
  const back = await startProduct(restored, key, folder);
  const stale = await api(back.proxyUrl, cookie)(AUTH_PATHS.session);
  expect(stale.status).toBe(401);
  const again = api(back.proxyUrl, await signIn(back.proxyUrl));
  expect(await sortedUsers(again)).toEqual(users);
  expect(await fleetsOf(again)).toEqual(fleets);
  // The proxy's key, restored with the service's database, still works.
  const check = await again(`/api${paths.bulkCompliance()}`, "POST", {
    registrations: registrations.slice(0, 5),
  });
  expect(check.status).toBe(200);
  await back.stop();
  return manifest;
}

describe("the backup drill", { timeout: 150_000 }, () => {
  it("on SQLite: backed up during a fleet run, restored into a new folder, the product starts on it as it was", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-drill-sqlite-"));
    folders.push(folder);
    const on = (name: string) => ({
      service: sqliteStore("DATABASE_PATH", join(folder, name, "vics.sqlite")),
      proxy: sqliteStore(
        "PROXY_DATABASE_PATH",
        join(folder, name, "proxy.sqlite"),
      ),
    });
    mkdirSync(join(folder, "live"));
    const manifest = await drill(folder, on("live"), on("restored"));
    expect(manifest.files.map((file) => [file.name, file.engine])).toEqual([
      ["service.sqlite", "sqlite"],
      ["proxy.sqlite", "sqlite"],
    ]);
  });

  it("on PostgreSQL: backed up during a fleet run, restored into new databases, the product starts on them as they were", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-drill-pg-"));
    folders.push(folder);
    const server = postgres();
    const on = async (name: string) => ({
      service: postgresStore(await server.createDatabase(`${name}_service`)),
      proxy: postgresStore(await server.createDatabase(`${name}_proxy`)),
    });
    const manifest = await drill(
      folder,
      await on("live"),
      await on("restored"),
    );
    expect(manifest.files.map((file) => [file.name, file.engine])).toEqual([
      ["service.dump", "postgresql"],
      ["proxy.dump", "postgresql"],
    ]);
  });
});
