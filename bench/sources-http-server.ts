// `node bench/sources-http-server.ts <dir> <vehicles>`: the fresh check's two apps (sources-setup.ts:
// DVLA VES on, every vehicle's facts fresh; and no register) served by @hono/node-server on
// 127.0.0.1, in a process of their own so that its CPU is the server's alone, not the load's.
// It prints one JSON line (ServedApps), then answers each line "cpu" on stdin with its CPU so far
// (process.cpuUsage, µs): finer than /proc's hundredths of a second, and no request of its own
// among the measured ones. SIGTERM closes it.
import { createInterface } from "node:readline";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import {
  internalKey,
  recordFetchedAt,
  seededStore,
  serviceApp,
  standInFor,
  vesRefresher,
} from "./sources-setup.ts";
import { DEFAULT_PACE } from "../service/src/sources/source-settings.ts";

export interface ServedApps {
  /** Base URLs, no trailing slash. */
  on: string;
  off: string;
  /** An internal key for each app (the plan's per-minute limit is per key). */
  keys: { on: string; off: string };
  registrations: string[];
}

const [dir, vehicles] = process.argv.slice(2);
if (!dir || !vehicles)
  throw new Error("usage: sources-http-server.ts <dir> <vehicles>");

const { store, registrations } = seededStore(dir, Number(vehicles));
await recordFetchedAt(store, registrations, new Date());
const standIn = await standInFor(registrations, undefined);
const refresher = vesRefresher(store, standIn, DEFAULT_PACE["dvla-ves"]);

function listen(fetch: (request: Request) => Response | Promise<Response>) {
  return new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
      resolve({
        url: `http://127.0.0.1:${(info as AddressInfo).port}`,
        close: () => server.close(),
      }),
    );
  });
}

const on = await listen(serviceApp(store, refresher).fetch);
const off = await listen(serviceApp(store).fetch);
const served: ServedApps = {
  on: on.url,
  off: off.url,
  keys: {
    on: await internalKey(store, "bench-sources-http-on"),
    off: await internalKey(store, "bench-sources-http-off"),
  },
  registrations,
};
console.log(JSON.stringify(served));

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() !== "cpu") return;
  const { user, system } = process.cpuUsage();
  console.log(JSON.stringify({ cpuUs: user + system }));
});

process.once("SIGTERM", () => {
  lines.close();
  on.close();
  off.close();
  void refresher
    .close()
    .then(() => standIn.close())
    .then(() => store.close())
    .then(() => process.exit(0));
});
