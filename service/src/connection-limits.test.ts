// The connection guard is attached to the real service: `node src/index.ts` with a small
// per-address cap, over real sockets from two loopback addresses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  getFrom,
  idleSockets,
  socketClosed,
} from "@vics/server-kit/testing/idle-sockets";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "./store/open-store.ts";
import {
  startService,
  type ServiceProcess,
} from "./testing/service-process.ts";

let dir: string;
let databasePath: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vics-connections-"));
  databasePath = join(dir, "vics.sqlite");
  await (await openStore({ path: databasePath }, new Date())).close();
}, 60_000);
afterEach(() => {
  service?.child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("node src/index.ts with MAX_CONNECTIONS_PER_ADDRESS=3", () => {
  it("closes the idle sockets one address opens over 3, answers another address, and says so in the log", async () => {
    service = startService(databasePath, { MAX_CONNECTIONS_PER_ADDRESS: "3" });
    const url = new URL(await service.url);
    const flood = await idleSockets(Number(url.port), "127.0.0.1", 5);
    await Promise.all(flood.slice(0, 2).map(socketClosed));

    const health = await getFrom(new URL("/health", url).href, "127.0.0.2");
    expect(health.status).toBe(200);
    const warning = await service.event(
      "closing connections: connection limits reached",
    );
    expect(warning).toMatchObject({ level: "warn", maxPerAddress: 3 });
    for (const socket of flood) socket.destroy();

    service.child.kill("SIGTERM");
    expect((await service.exited).code).toBe(0);
  });
});
