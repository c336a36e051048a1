// HTTP load with autocannon, on loopback: each scenario warms up, then measures, bounded both in
// time and in request count, and fails unless every answer was a 2xx (answers.ts).
import autocannon from "autocannon";
import { answerProblem, ScenarioFailure, type Answers } from "./answers.ts";
import { cpuSeconds } from "./cpu.ts";

export const CONNECTIONS = 64;

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** The path of each request, e.g. one for a random fleet registration. */
  path: () => string;
  /** Headers of each request's own, beside `headers`: the web app's traceparent. */
  perRequestHeaders?: () => Record<string, string>;
  /**
   * For an https url: the TLS options of each connection and the name it asks for (SNI takes
   * a host name, not an address). autocannon connects without verifying the certificate
   * whatever these say; the bench checks it with a client of its own first (cluster.ts).
   */
  tls?: { options: { ca: string | Buffer }; servername: string };
}

/** Each call draws one of `sample` at random: each request's registration from the fleet's. */
export function randomPick(sample: readonly string[]): () => string {
  return () => sample[Math.floor(Math.random() * sample.length)] ?? "";
}

export interface LoadRun extends Answers {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  seconds: number;
}

function load(
  options: LoadOptions,
  seconds: number,
  maxRequests: number,
): Promise<LoadRun> {
  // autocannon fails inside its own code on fewer requests than connections (a warm-up of 32
  // with 64 connections, 30 November 2026): said here, in words, before any request.
  if (maxRequests < CONNECTIONS)
    return Promise.reject(
      new RangeError(
        `a load of at most ${maxRequests} requests over ${CONNECTIONS} connections: give it at least ${CONNECTIONS}`,
      ),
    );
  return new Promise((done, fail) => {
    autocannon(
      {
        url: options.url,
        connections: CONNECTIONS,
        duration: seconds,
        // Ends the run early rather than let it cross the key's rate limit.
        maxOverallRequests: maxRequests,
        headers: options.headers,
        ...(options.tls && {
          tlsOptions: options.tls.options,
          servername: options.tls.servername,
        }),
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              path: options.path(),
              ...(options.perRequestHeaders && {
                headers: { ...request.headers, ...options.perRequestHeaders() },
              }),
            }),
          },
        ],
      },
      (error, result) => {
        if (error) return fail(error);
        const statuses: Record<string, number> = {};
        for (const [status, stat] of Object.entries(
          result.statusCodeStats ?? {},
        ))
          statuses[status] = stat.count ?? 0;
        done({
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
          requests: result.requests.total,
          seconds: result.duration,
          rps:
            result.duration > 0 ? result.requests.total / result.duration : 0,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
        });
      },
    );
  });
}

export interface ScenarioRun extends LoadRun {
  /**
   * Microseconds of CPU per request over the measured run, for each process asked about: the
   * warm-up's requests and their JIT compilation are left out.
   */
  cpuUsPerRequest: Record<string, number>;
  /** The warm-up's requests and seconds, apart from the measured run's. */
  warmUp: { requests: number; seconds: number };
}

export interface ScenarioPlan {
  warmUpSeconds: number;
  seconds: number;
  /** Requests the warm-up and the measured run may make together. */
  maxRequests: number;
}

/** A warm-up (JIT, connection pools), then the measured run; the warm-up must pass too. */
export async function loadScenario(
  name: string,
  options: LoadOptions,
  plan: ScenarioPlan,
  /** Processes whose CPU time per request to report, by name. */
  pids: Record<string, number | undefined> = {},
  /**
   * Told just before and just after the measured run, warm-up apart: for counters of the
   * caller's own (a database's statements, a process tree's CPU) read over the same window.
   */
  window?: { opened(): Promise<void>; closed(): Promise<void> },
): Promise<ScenarioRun> {
  const warmUpShare = plan.warmUpSeconds / (plan.warmUpSeconds + plan.seconds);
  const warmUpMax = Math.floor(plan.maxRequests * warmUpShare);
  const warmUp = await load(options, plan.warmUpSeconds, warmUpMax);
  const problem = answerProblem(warmUp);
  if (problem) throw new ScenarioFailure(`${name} (warm-up)`, problem);
  await window?.opened();
  const cpuBefore = Object.entries(pids).map(
    ([name, pid]) => [name, pid, cpuSeconds(pid)] as const,
  );
  const run = await load(
    options,
    plan.seconds,
    plan.maxRequests - warmUp.requests,
  );
  const cpuAfter = cpuBefore.map(([, pid]) => cpuSeconds(pid));
  await window?.closed();
  const runProblem = answerProblem(run);
  if (runProblem) throw new ScenarioFailure(`${name} (run)`, runProblem);
  const cpuUsPerRequest: Record<string, number> = {};
  cpuBefore.forEach(([processName, , before], i) => {
    const after = cpuAfter[i];
    if (before !== undefined && after !== undefined && run.requests > 0)
      cpuUsPerRequest[processName] = ((after - before) * 1e6) / run.requests;
  });
  return {
    ...run,
    cpuUsPerRequest,
    warmUp: { requests: warmUp.requests, seconds: warmUp.seconds },
  };
}
