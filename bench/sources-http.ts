// The fresh check over real HTTP (sources-http-server.ts): the two apps served in a process of
// their own, loaded by autocannon from this one (64 connections, random registrations of the
// sample), the server's CPU per check in interleaved rounds, as the cost rounds measure a server
// beside its floor (cost-rounds.ts). In process (sources.ts) each check's cost is the app's
// alone, so one freshness read more weighs more there; here the server's HTTP work, which every
// check pays, is in both sides of the ratio, as in a deployed service.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import autocannon from "autocannon";
import { paths } from "@vics/shared";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";
import { stopChild } from "../scripts/load/children.ts";
import { CONNECTIONS } from "./load.ts";
import { overRounds, roundOrder, type RoundFigure } from "./rounds.ts";
import type { ServedApps } from "./sources-http-server.ts";

const SERVER = join(import.meta.dirname, "sources-http-server.ts");

export interface HttpCheckFigures {
  httpFreshCheckCpuUs: RoundFigure;
  httpOffCheckCpuUs: RoundFigure;
  httpFreshCheckRatio: RoundFigure;
}

/** The server process, what it serves, and its CPU so far in µs. */
async function startServer(dir: string, vehicles: number) {
  const child = spawn(process.execPath, [SERVER, dir, String(vehicles)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  killOnExit(child);
  const lines = createInterface({ input: child.stdout! });
  const next = lines[Symbol.asyncIterator]();
  const line = async (): Promise<string> => {
    const { value, done } = await next.next();
    if (done) throw new Error(`${SERVER} exited (${child.exitCode})`);
    return value as string;
  };
  const served = JSON.parse(await line()) as ServedApps;
  return {
    child,
    served,
    async cpuUs(): Promise<number> {
      child.stdin!.write("cpu\n");
      return (JSON.parse(await line()) as { cpuUs: number }).cpuUs;
    },
  };
}

/** `count` checks of random sample registrations; throws unless every answer was a 200. */
function checks(
  url: string,
  key: string,
  registrations: readonly string[],
  count: number,
): Promise<void> {
  const path = () =>
    paths.compliance(
      registrations[Math.floor(Math.random() * registrations.length)]!,
    );
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: Math.min(CONNECTIONS, count),
        amount: count,
        headers: { "X-API-Key": key },
        requests: [
          { setupRequest: (request) => ({ ...request, path: path() }) },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const bad = result.non2xx + result.errors + result.timeouts;
        if (bad > 0 || result.requests.total < count)
          return reject(
            new Error(
              `${url}: ${bad} of ${result.requests.total} checks failed (non-2xx, errors, time-outs)`,
            ),
          );
        resolve();
      },
    );
  });
}

/** The fresh check with the register on beside none, over HTTP, on a store file in `dir`. */
export async function freshCheckOverHttp(
  dir: string,
  sizes: { checks: number; warmUp: number; rounds: number },
  vehicles = 1000,
): Promise<HttpCheckFigures> {
  const server = await startServer(dir, vehicles);
  try {
    const { served } = server;
    const apps = [
      { name: "on" as const, url: served.on, key: served.keys.on },
      { name: "off" as const, url: served.off, key: served.keys.off },
    ];
    for (const app of apps)
      await checks(app.url, app.key, served.registrations, sizes.warmUp);
    const cpu = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < sizes.rounds; round += 1)
      for (const app of roundOrder(apps, round)) {
        const before = await server.cpuUs();
        await checks(app.url, app.key, served.registrations, sizes.checks);
        cpu[app.name].push(((await server.cpuUs()) - before) / sizes.checks);
      }
    return {
      httpFreshCheckCpuUs: overRounds(cpu.on),
      httpOffCheckCpuUs: overRounds(cpu.off),
      httpFreshCheckRatio: overRounds(cpu.on.map((on, i) => on / cpu.off[i]!)),
    };
  } finally {
    await stopChild(server.child);
  }
}
