// `npm run bench` (`-- --only tracing`): what traces cost a signed-in check (decision 069).
// Two stacks of the real service and proxy, each on its own small fleet: one with tracing off
// (no OTEL_* endpoint, as shipped), one exporting to an OTLP sink in this process at 10%
// sampling (parentbased_traceidratio 0.1). Both are loaded with the same signed-in insurance
// checks in interleaved rounds, and each round's figure is the two servers' CPU per check
// together, both processes trace. The code before tracing cannot run beside them, so "off over
// today's" is the off check against itself less what the off path adds, those calls timed in
// process (a check runs them once each: the access logs' two span namings, the client call's
// traceparent read and check). Spans the sink never received would make the "on" figure
// meaningless: the section fails then.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";
import {
  nameServerSpan,
  startClientCall,
  TRACEPARENT_HEADER,
} from "@vics/server-kit/tracing";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { signedInCookie, startServers } from "../scripts/load/stack.ts";
import { costRoundsPlan } from "./forwarders.ts";
import { loadScenario, randomPick, type LoadOptions } from "./load.ts";
import type { Recorder } from "./recorder.ts";
import { roundOrder } from "./rounds.ts";
import { seedDatabase } from "./seed.ts";
import {
  TRACING_STACKS,
  tracingFigureKeys,
  tracingFigures as figuresOf,
  type TracingStack,
} from "./tracing-figures.ts";

/** Each stack's fleet: enough vehicles that checks spread over many rows. */
const FLEET_SIZE = 20_000;
const SAMPLE = 5_000;
const NO_ENDPOINT = {
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
};

/** An OTLP/http receiver that reads and drops every export, counting them. */
async function otlpSink() {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      exports += 1;
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The ns of CPU the off path's added calls take for one check, over `checks` checks in this
 * process, where no SDK is registered either.
 */
export function offPathNs(checks = 1_000_000): number {
  const headers = new Headers({
    accept: "application/json",
    cookie: "vics_session=x",
    [CLIENT_HEADER]: "web",
    [TRACEPARENT_HEADER]:
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
  });
  const started = process.cpuUsage();
  for (let check = 0; check < checks; check++) {
    nameServerSpan("GET", "/api/v1/vehicle/:registration/insurance");
    const call = startClientCall(
      "GET",
      "http://127.0.0.1:3001",
      "/v1/vehicle/:registration/insurance",
      headers.get(TRACEPARENT_HEADER) ?? undefined,
    );
    call.end(200);
    nameServerSpan("GET", "/v1/vehicle/:registration/insurance");
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / checks;
}

/** One stack on a fleet of its own in `dataDir`, signed in; `env` added to both servers. */
async function tracedStack(dataDir: string, env: Record<string, string>) {
  seedDatabase(dataDir, FLEET_SIZE);
  const servers = await startServers({
    dataDir,
    serviceEnv: env,
    proxyEnv: env,
  });
  const stop = async () => {
    await servers.proxy.stop();
    await servers.service.stop();
  };
  try {
    const cookie = await signedInCookie(
      `${servers.proxy.url}/`,
      servers.proxyDatabasePath,
    );
    const pick = randomPick(fleetRegistrations(dataDir, SAMPLE));
    const options: LoadOptions = {
      url: servers.proxy.url,
      headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
      path: () => PROXY_PREFIX + paths.insurance(pick()),
    };
    const pids = {
      proxy: servers.proxy.process.pid,
      service: servers.service.process.pid,
    };
    return { options, pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function tracingSection(
  context: { dataDir: string; quick: boolean },
  recorder: Recorder,
): Promise<void> {
  const { dataDir, quick } = context;
  const { figures, say } = recorder;
  const { rounds, keyed, warmUp } = costRoundsPlan(quick);
  await recorder.scenario(
    tracingFigureKeys(),
    async () => {
      const sink = await otlpSink();
      const stacks: Partial<
        Record<TracingStack, Awaited<ReturnType<typeof tracedStack>>>
      > = {};
      try {
        say(`- seeding two fleets of ${FLEET_SIZE.toLocaleString("en-GB")}...`);
        stacks.tracing_off = await tracedStack(
          mkdtempSync(join(dataDir, "tracing-off-")),
          NO_ENDPOINT,
        );
        stacks.tracing_on10 = await tracedStack(
          mkdtempSync(join(dataDir, "tracing-on-")),
          {
            ...NO_ENDPOINT,
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.url,
            OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
            OTEL_TRACES_SAMPLER_ARG: "0.1",
          },
        );
        const cpu: Record<TracingStack, number[]> = {
          tracing_off: [],
          tracing_on10: [],
        };
        for (const name of TRACING_STACKS) {
          const stack = stacks[name]!;
          await loadScenario(`${name} (warm-up)`, stack.options, {
            warmUpSeconds: 1,
            seconds: Math.max(1, warmUp.seconds - 1),
            maxRequests: warmUp.requests,
          });
        }
        for (let round = 0; round < rounds; round++) {
          for (const name of roundOrder(TRACING_STACKS, round)) {
            const stack = stacks[name]!;
            const run = await loadScenario(
              name,
              stack.options,
              keyed,
              stack.pids,
            );
            const { proxy, service } = run.cpuUsPerRequest;
            if (proxy === undefined || service === undefined)
              throw new Error(`${name}: /proc gave no CPU time`);
            cpu[name].push(proxy + service);
            say(
              `    round ${round + 1}, ${name}: ${Math.round(run.rps)} req/s; CPU µs/check: proxy ${Math.round(proxy)}, service ${Math.round(service)}`,
            );
          }
        }
        // A stop sends the spans still held; none at all means nothing was traced.
        await stacks.tracing_on10.stop();
        delete stacks.tracing_on10;
        if (sink.exports() === 0)
          throw new Error("the traced stack exported no spans");
        Object.assign(figures, figuresOf(cpu, offPathNs()));
      } finally {
        for (const stack of Object.values(stacks)) await stack.stop();
        await sink.close();
      }
    },
    `what traces cost a signed-in check: off, and on at 10% sampling, ${rounds} interleaved rounds`,
  );
}
