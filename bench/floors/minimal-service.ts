// Starts the minimal service (minimal-service-server.ts) as one of the bench's children, on a
// free loopback port, over the service's database. It reads the keys once: make its key first.
import { join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { startChild, type Child } from "../../scripts/load/children.ts";
import { ROOT } from "../servers.ts";

export async function startMinimalService(options: {
  /** The service's SQLite file, seeded, holding the keys to accept. */
  databasePath: string;
}): Promise<Child> {
  const port = await freePort();
  return startChild({
    label: "minimal service",
    command: process.execPath,
    args: [
      join(ROOT, "bench/floors/minimal-service-server.ts"),
      String(port),
      options.databasePath,
    ],
    cwd: ROOT,
    port,
    // Any answer means it listens: Hono's own 404 here.
    readyPath: "/",
  });
}
