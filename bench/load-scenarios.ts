// The single-check load scenarios: the product's servers beside their floors (bench/floors/) in
// interleaved rounds (cost-rounds.ts), so CPU per request can be compared with the cheapest
// honest server doing the same job on the same machine in the same minutes; then the compliance
// check once. Each keyed server has a key no other used, and no key meets its plan's limit.
import { join } from "node:path";
import {
  API_KEY_HEADER,
  CLIENT_HEADER,
  HEALTH_PATH,
  PLAN_LIMITS,
  PROXY_PREFIX,
  paths,
} from "@vics/shared";
import { startServer, type Stack } from "../scripts/load/stack.ts";
import { findNginx } from "../scripts/cluster/nginx.ts";
import { costFigureKeys, costFigures } from "./costs.ts";
import { costRounds, type CostServer } from "./cost-rounds.ts";
import { startCarefulBff } from "./floors/careful-bff.ts";
import { startMinimalService } from "./floors/minimal-service.ts";
import { startNginx } from "./floors/nginx.ts";
import { loadScenario, randomPick } from "./load.ts";
import type { Recorder } from "./recorder.ts";
import { createKey, startHello } from "./servers.ts";
import {
  costRoundsPlan,
  signedInForwarders,
  startedServers,
} from "./forwarders.ts";

export interface LoadContext {
  stack: Stack;
  dataDir: string;
  /** Fleet registrations to draw each request's from at random. */
  sample: readonly string[];
  quick: boolean;
}

const CLIENT_HEADERS = { [CLIENT_HEADER]: "bench" };

export async function loadFigures(
  context: LoadContext,
  recorder: Recorder,
): Promise<void> {
  const { stack, dataDir, sample } = context;
  const { figures, scenario, say } = recorder;
  const databasePath = join(dataDir, "vics.sqlite");
  const { rounds, timing, keyed, warmUp } = costRoundsPlan(context.quick);
  const pick = randomPick(sample);
  const key = (name: string) => createKey(databasePath, name);
  const insurance = () => paths.insurance(pick());
  const proxied = () => PROXY_PREFIX + insurance();
  const servicePid = { service: stack.service.pid };

  await scenario(
    costFigureKeys(),
    async () => {
      const { start, stopAll } = startedServers();
      try {
        const servers: CostServer[] = [];
        const hello = await start(startHello());
        servers.push({
          name: "hello",
          options: { url: hello.url, headers: {}, path: () => "/" },
          pid: hello.process.pid,
          // No rate limit here: the cap only bounds a run that would otherwise not end.
          plan: { ...timing, maxRequests: 2_000_000 },
        });
        // The minimal service reads the keys when it starts: its key is made first.
        const minimalKey = key("minimal-service");
        const minimal = await start(startMinimalService({ databasePath }));
        servers.push({
          name: "minimal_service",
          options: {
            url: minimal.url,
            headers: { ...CLIENT_HEADERS, [API_KEY_HEADER]: minimalKey },
            path: insurance,
          },
          pid: minimal.process.pid,
          plan: keyed,
        });
        // A service process of its own, as the minimal service is: the stack's serves the
        // forwarders' checks between its rounds (their request ids, their connections), which
        // the floor never sees, so the two would not be loaded alike.
        const service = await start(
          startServer("service/src/index.ts", HEALTH_PATH, {
            DATABASE_PATH: databasePath,
          }),
        );
        servers.push({
          name: "service",
          options: {
            url: service.url,
            headers: { ...CLIENT_HEADERS, [API_KEY_HEADER]: key("insurance") },
            path: insurance,
          },
          pid: service.process.pid,
          plan: keyed,
        });
        const bff = await start(
          startCarefulBff({ upstreamUrl: stack.serviceUrl, key: key("bff") }),
        );
        servers.push({
          name: "bff",
          options: { url: bff.url, headers: CLIENT_HEADERS, path: proxied },
          pid: bff.process.pid,
          alsoPids: servicePid,
          plan: keyed,
        });
        servers.push(
          ...(await signedInForwarders({
            stack,
            dataDir,
            key,
            proxied,
            plan: keyed,
            start,
          })),
        );
        const binary = findNginx();
        if (binary) {
          const nginx = await start(
            startNginx({
              binary,
              directory: join(dataDir, "nginx"),
              serviceUrl: stack.serviceUrl,
              key: key("nginx"),
            }),
          );
          servers.push({
            name: "nginx",
            options: { url: nginx.url, headers: CLIENT_HEADERS, path: proxied },
            pid: nginx.workerPid(),
            alsoPids: servicePid,
            plan: keyed,
          });
        } else say("  nginx is not installed: its figures are skipped");
        const runs = await costRounds(servers, rounds, say, warmUp);
        Object.assign(figures, costFigures(runs));
        if (!binary)
          for (const name of ["nginx_cpu_us_per_req", "nginx_rps"])
            recorder.notes[name] = "skipped: nginx is not installed";
      } finally {
        await stopAll();
      }
    },
    `the servers and their floors, ${rounds} interleaved rounds`,
  );

  await scenario(["compliance_rps", "compliance_p99_ms"], async () => {
    const run = await loadScenario(
      "service compliance",
      {
        url: stack.serviceUrl,
        headers: { ...CLIENT_HEADERS, [API_KEY_HEADER]: key("compliance") },
        path: () => paths.compliance(pick()),
      },
      { ...timing, maxRequests: PLAN_LIMITS.internal * 0.9 },
      servicePid,
    );
    say(
      `  ${Math.round(run.rps)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms (${run.requests} requests)`,
    );
    figures.compliance_rps = run.rps;
    figures.compliance_p99_ms = run.p99Ms;
  });
}
