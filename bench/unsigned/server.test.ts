// The bench's proxy without sign-in's costs, started as the bench starts it (a process of its
// own in front of the real service): a signed-in check through it is answered as through the
// proxy, and records no audit row.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  CLIENT_HEADER,
  InsuranceRecordSchema,
  paths,
  PROXY_PREFIX,
  REQUEST_ID_HEADER,
} from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import type { Child } from "../../scripts/load/children.ts";
import {
  smallDatabase,
  startService,
  type SmallDatabase,
} from "../floors/testing.ts";
import { startUnsignedProxy, type BenchProxy } from "../servers.ts";

let database: SmallDatabase;
let service: Child;
let proxy: BenchProxy;
let proxyDatabasePath = "";

beforeAll(async () => {
  database = smallDatabase();
  const port = await freePort();
  service = await startService(database.databasePath, port);
  proxyDatabasePath = join(database.dir, "proxy-unsigned.sqlite");
  proxy = await startUnsignedProxy(
    service.url,
    await database.key(),
    proxyDatabasePath,
  );
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
  rmSync(database.dir, { recursive: true, force: true });
});

/** The proxy's audit rows so far: signing the bench's user in writes some of its own. */
function auditRows(): number {
  const db = new DatabaseSync(proxyDatabasePath, { readOnly: true });
  try {
    const row = db.prepare("SELECT count(*) AS count FROM audit_events").get();
    return Number(row?.count);
  } finally {
    db.close();
  }
}

it("answers a signed-in check as the proxy does, and writes no audit row for it", async () => {
  const before = auditRows();
  const registration = database.registrations[0]!;
  const response = await fetch(
    proxy.url + PROXY_PREFIX + paths.insurance(registration),
    { headers: { [CLIENT_HEADER]: "bench", Cookie: proxy.cookie } },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get(REQUEST_ID_HEADER)).toBeTruthy();
  const record = InsuranceRecordSchema.parse(await response.json());
  expect(record.registration).toBe(registration);
  expect(auditRows()).toBe(before);
});

it("refuses a check without a session cookie", async () => {
  const response = await fetch(
    proxy.url + PROXY_PREFIX + paths.insurance(database.registrations[0]!),
    { headers: { [CLIENT_HEADER]: "bench" } },
  );
  expect(response.status).toBe(401);
});
