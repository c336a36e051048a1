import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, paths, PROXY_PREFIX } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import type { Child } from "../../scripts/load/children.ts";
import { startCarefulBff, type CarefulBff } from "./careful-bff.ts";
import { smallDatabase, startService, type SmallDatabase } from "./testing.ts";

let database: SmallDatabase;
let key = "";
let service: Child;
let bff: CarefulBff;
let signedIn: CarefulBff;
let sessionsPath = "";
let stubbed: CarefulBff;
let unreachable: CarefulBff;
let stub: Server;
/** The headers of each request the stub upstream received. */
const stubSaw: IncomingHttpHeaders[] = [];

/** An upstream that answers with headers the BFF must not pass on, or never (SLOW1). */
async function startStub(): Promise<string> {
  stub = createServer((request, response) => {
    stubSaw.push(request.headers);
    if (request.url?.includes("/SLOW1/")) return;
    response.writeHead(200, {
      "Content-Type": "application/json",
      "Set-Cookie": "upstream=1",
      Server: "stub",
      "X-RateLimit-Limit": "5",
      "X-Upstream-Secret": "no",
    });
    response.end('{"stub":true}');
  });
  stub.listen(0, "127.0.0.1");
  await once(stub, "listening");
  const address = stub.address();
  if (address === null || typeof address === "string")
    throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  database = smallDatabase();
  sessionsPath = join(database.dir, "bff-sessions.sqlite");
  key = await database.key();
  const stubUrl = await startStub();
  const nobody = `http://127.0.0.1:${await freePort()}`;
  // The forwarders need no upstream to start: all start beside the service.
  const servicePort = await freePort();
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  [service, bff, signedIn, stubbed, unreachable] = await Promise.all([
    startService(database.databasePath, servicePort),
    startCarefulBff({ upstreamUrl: serviceUrl, key }),
    startCarefulBff({
      upstreamUrl: serviceUrl,
      key,
      sessions: { databasePath: sessionsPath },
    }),
    startCarefulBff({ upstreamUrl: stubUrl, key, timeoutMs: 300 }),
    startCarefulBff({ upstreamUrl: nobody, key }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(
    [bff, signedIn, stubbed, unreachable, service].map((child) =>
      child?.stop(),
    ),
  );
  stub?.closeAllConnections();
  stub?.close();
  rmSync(database.dir, { recursive: true, force: true });
});

const check = (
  server: Child,
  registration: string,
  headers: Record<string, string> = {},
) =>
  fetch(server.url + PROXY_PREFIX + paths.insurance(registration), { headers });

function expectSecurityHeaders(answer: Response) {
  const csp = answer.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("worker-src 'self' blob:");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(answer.headers.get("x-frame-options")).toBe("DENY");
  expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("the careful BFF", () => {
  it("forwards a check with its key and passes the service's answer back, with the security headers", async () => {
    const plate = database.registrations[3]!;
    const [answer, direct] = await Promise.all([
      check(bff, plate),
      fetch(service.url + paths.insurance(plate), {
        headers: { [API_KEY_HEADER]: key },
      }),
    ]);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(await direct.json());
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("x-ratelimit-limit")).toBe("100000");
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expectSecurityHeaders(answer);
    const missing = await check(bff, "ZZ99ZZZ");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe(
      "VEHICLE_NOT_FOUND",
    );
  });

  it("refuses a path without a normalised registration with 400, before the service", async () => {
    for (const plate of ["ab12cde", "AB12 CDE", "AB12CDEFG", "A"]) {
      const answer = await check(bff, plate);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe(
        "INVALID_REGISTRATION",
      );
      expectSecurityHeaders(answer);
    }
  });

  it("sends upstream only Accept, a plain X-Request-Id and its own key, and passes back only the allowlisted headers", async () => {
    stubSaw.length = 0;
    const answer = await check(stubbed, "AB12CDE", {
      Accept: "application/json",
      "X-Request-Id": "plain-id-1",
      Cookie: "vics_session=x",
      Authorization: "Bearer x",
      [API_KEY_HEADER]: "the browser's own",
      "X-Forwarded-For": "203.0.113.9",
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"stub":true}');
    expect(answer.headers.get("x-ratelimit-limit")).toBe("5");
    for (const name of ["set-cookie", "server", "x-upstream-secret"])
      expect(answer.headers.get(name)).toBeNull();
    expectSecurityHeaders(answer);
    const saw = stubSaw[0]!;
    expect(saw.accept).toBe("application/json");
    expect(saw["x-request-id"]).toBe("plain-id-1");
    expect(saw["x-api-key"]).toBe(key);
    for (const name of ["cookie", "authorization", "x-forwarded-for"])
      expect(saw[name]).toBeUndefined();
    await check(stubbed, "AB12CDE", { "X-Request-Id": "not plain!" });
    expect(stubSaw[1]!["x-request-id"]).toBeUndefined();
  });

  it("answers 504 when the service does not answer in time, 502 when it cannot be reached", async () => {
    const slow = await check(stubbed, "SLOW1");
    expect(slow.status).toBe(504);
    expect(((await slow.json()) as { code: string }).code).toBe(
      "GATEWAY_TIMEOUT",
    );
    expectSecurityHeaders(slow);
    const down = await check(unreachable, "AB12CDE");
    expect(down.status).toBe(502);
    expect(((await down.json()) as { code: string }).code).toBe("BAD_GATEWAY");
  });
});

describe("the careful BFF with sessions", () => {
  const auditRows = () => {
    const db = new DatabaseSync(sessionsPath, { readOnly: true });
    try {
      return db
        .prepare("SELECT user_id, registration, status FROM audit_events")
        .all();
    } finally {
      db.close();
    }
  };

  it("refuses a check without its session's cookie with 401, recording nothing", async () => {
    const wrong = `vics_session=${"A".repeat(43)}`;
    for (const headers of [
      {} as Record<string, string>,
      { Cookie: wrong },
      { Cookie: "vics_session=x" },
    ]) {
      const answer = await check(signedIn, database.registrations[0]!, headers);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { code: string }).code).toBe(
        "SIGN_IN_REQUIRED",
      );
      expectSecurityHeaders(answer);
    }
    expect(auditRows()).toHaveLength(0);
  });

  it("commits one audit event per answered check before answering it, and one each for 20 checks sent at once", async () => {
    expect(signedIn.cookie).toMatch(/^vics_session=[A-Za-z0-9_-]{43}$/);
    const cookie = { Cookie: signedIn.cookie! };
    const before = auditRows().length;
    const first = await check(signedIn, database.registrations[5]!, cookie);
    expect(first.status).toBe(200);
    expect(auditRows()).toHaveLength(before + 1);
    const missing = await check(signedIn, "ZZ99ZZZ", cookie);
    expect(missing.status).toBe(404);
    expect(auditRows()).toHaveLength(before + 2);
    const plates = database.registrations.slice(10, 30);
    const answers = await Promise.all(
      plates.map((plate) => check(signedIn, plate, cookie)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      plates.map(() => 200),
    );
    const rows = auditRows();
    expect(rows).toHaveLength(before + 2 + plates.length);
    expect(
      rows
        .slice(before + 2)
        .map((row) => row.registration)
        .sort(),
    ).toEqual([...plates].sort());
    expect(rows.map((row) => row.user_id)).toEqual(
      rows.map(() => "bench-user"),
    );
    expect(rows[before + 1]).toMatchObject({
      registration: "ZZ99ZZZ",
      status: 404,
    });
    // A refused path is not a check: nothing forwarded, nothing recorded.
    expect((await check(signedIn, "ab12cde", cookie)).status).toBe(400);
    expect(auditRows()).toHaveLength(rows.length);
  });
});
