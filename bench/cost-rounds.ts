// Runs the cost rounds: every server of costs.ts loaded in turn with the same single insurance
// checks, round after round, the order reversed every other round, so that a server and its
// floor meet the same state of the machine. Each round's CPU per request comes from /proc over
// the measured run (load.ts). Before the first round each server is loaded once, unmeasured,
// for longer: V8 is still compiling a server's hot code many seconds into its first load, and a
// server with more code on its path pays that longer, which a short round would charge to it as
// if it were the cost of every request. A server runs for days; its steady state is the figure.
// The warm-up is the same number of requests for every server (V8 tiers a function up by how
// often it runs), within a time bound; a fast server reaches the count first.
import { loadScenario, type LoadOptions, type ScenarioPlan } from "./load.ts";
import type { Contestant, RoundRun } from "./costs.ts";
import { roundOrder } from "./rounds.ts";

export interface CostServer {
  name: Contestant;
  options: LoadOptions;
  /** The process whose CPU is this server's figure (nginx: its one worker). */
  pid: number | undefined;
  /** Processes whose CPU is said beside it: the service behind a forwarder. */
  alsoPids?: Record<string, number | undefined>;
  plan: ScenarioPlan;
}

/** Each server's unmeasured load before the rounds: this many requests, or this long. */
interface WarmUp {
  requests: number;
  seconds: number;
}

export async function costRounds(
  servers: readonly CostServer[],
  rounds: number,
  say: (line: string) => void,
  warmUp: WarmUp,
): Promise<Partial<Record<Contestant, RoundRun[]>>> {
  const runs: Partial<Record<Contestant, RoundRun[]>> = {};
  say(
    `  warming each server up: ${warmUp.requests.toLocaleString("en-GB")} requests, at most ${warmUp.seconds} s`,
  );
  for (const server of servers) {
    const run = await loadScenario(`${server.name} (warm-up)`, server.options, {
      warmUpSeconds: 1,
      seconds: Math.max(1, warmUp.seconds - 1),
      maxRequests: warmUp.requests,
    });
    say(
      `    ${server.name}: ${run.requests + run.warmUp.requests} requests in ${(run.seconds + run.warmUp.seconds).toFixed(1)} s`,
    );
  }
  for (let round = 0; round < rounds; round++) {
    say(`  round ${round + 1} of ${rounds}`);
    for (const server of roundOrder(servers, round)) {
      const run = await loadScenario(server.name, server.options, server.plan, {
        [server.name]: server.pid,
        ...server.alsoPids,
        // The load generator's own CPU too: it shares the machine's cores with the servers.
        autocannon: process.pid,
      });
      const cpuUs = run.cpuUsPerRequest[server.name];
      if (cpuUs === undefined)
        throw new Error(
          `${server.name}: /proc gave no CPU time for its process`,
        );
      (runs[server.name] ??= []).push({
        cpuUs,
        rps: run.rps,
        p50Ms: run.p50Ms,
        p99Ms: run.p99Ms,
      });
      const cpu = Object.entries(run.cpuUsPerRequest)
        .map(([name, us]) => `${name} ${Math.round(us)}`)
        .join(", ");
      say(
        `    ${server.name}: ${Math.round(run.rps)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms; CPU µs/request: ${cpu}`,
      );
    }
  }
  return runs;
}
