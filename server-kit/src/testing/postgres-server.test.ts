import { afterAll, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "./postgres-server.ts";

let server: PostgresServer | undefined;
afterAll(() => server?.close());

it("starting a running server again does nothing, so the next stop still stops it", async () => {
  server = await startPostgres();
  await server.start();
  await expect(server.query("SELECT 1")).resolves.toBeDefined();
  await server.stop();
  await expect(server.query("SELECT 1")).rejects.toThrow();
  await server.start();
  await expect(server.query("SELECT 1")).resolves.toBeDefined();
}, 60_000);
