import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, describe, expect, it } from "vitest";
import {
  createKeyWithCli,
  startService,
  type ServiceProcess,
} from "./testing/service-process.ts";

/**
 * `node src/index.ts` with DATABASE_URL: what a replica does at start, and while its
 * PostgreSQL restarts. Real processes, a real PostgreSQL on a free loopback port.
 */

const UNUSED_PATH = "/nonexistent/vics.sqlite";
// The services are killed before the server closes: after-all hooks run last-registered first.
const server = sharedPostgres();
const services: ServiceProcess[] = [];
afterAll(() => {
  for (const service of services) service.child.kill("SIGKILL");
});

function start(env: Record<string, string>) {
  const service = startService(UNUSED_PATH, env);
  services.push(service);
  return service;
}

describe("node src/index.ts with DATABASE_URL", { timeout: 120_000 }, () => {
  it("migrates and seeds an empty database when SEED_SYNTHETIC_FLEET=true, answers checks, answers 503 while PostgreSQL is down and again once it is back", async () => {
    const url = await server().createDatabase("service");
    const first = start({ DATABASE_URL: url, SEED_SYNTHETIC_FLEET: "true" });
    const baseUrl = await first.url;
    expect(first.events().map((event) => event.msg)).toEqual([
      "database migrated",
      "seeding the database: it holds no vehicles yet (SEED_SYNTHETIC_FLEET)",
      "database seeded",
      "listening",
    ]);
    expect(await first.event("listening")).toMatchObject({
      sandbox: true,
      database: url,
    });

    // A second replica finds the schema and the fleet: it neither migrates nor seeds.
    const second = start({ DATABASE_URL: url, SEED_SYNTHETIC_FLEET: "true" });
    await second.url;
    expect(second.events().map((event) => event.msg)).toEqual(["listening"]);
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);

    // DATABASE_URL set, the CLI uses it and not the (unused) SQLite path.
    const key = await createKeyWithCli(UNUSED_PATH, "replicas", {
      DATABASE_URL: url,
    });
    const check = () =>
      fetch(`${baseUrl}/v1/vehicle/AB12CDE/insurance`, {
        headers: { "X-API-Key": key },
      });
    expect((await check()).status).toBe(200);

    await server().stop();
    try {
      const down = await check();
      expect(down.status).toBe(503);
      expect(down.headers.get("retry-after")).toBe("5");
      expect(await down.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    } finally {
      await server().start();
    }
    expect((await check()).status).toBe(200);

    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
  });

  it("seeds nothing unless asked: the sandbox fleet is opt-in on PostgreSQL", async () => {
    const url = await server().createDatabase("unseeded");
    const service = start({ DATABASE_URL: url });
    await service.url;
    expect(service.events().map((event) => event.msg)).toEqual([
      "database migrated",
      "listening",
    ]);
    expect(await service.event("listening")).toMatchObject({ sandbox: false });
    service.child.kill("SIGTERM");
    expect((await service.exited).code).toBe(0);
  });

  it("stops with one clear message, naming the database but not its password, when it cannot reach it", async () => {
    const service = start({
      DATABASE_URL: `postgres://vics:s3cret@127.0.0.1:${server().port}/missing`,
    });
    expect((await service.exited).code).toBe(1);
    expect(service.stderr()).toContain(
      `Cannot open the database at postgres://vics@127.0.0.1:${server().port}/missing`,
    );
    expect(service.stderr()).not.toContain("s3cret");
    expect(service.stderr()).not.toMatch(/\n\s+at /);
  });
});
