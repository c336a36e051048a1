// The single-check load scenarios, in one run so their ratios mean something: the bare Hono
// app, the service direct (insurance, compliance), the VICS proxy and nginx in front of it.
// Each keyed scenario has a key no other scenario used.
import { join } from "node:path";
import {
  API_KEY_HEADER,
  CLIENT_HEADER,
  PLAN_LIMITS,
  PROXY_PREFIX,
  paths,
} from "@vics/shared";
import type { Stack } from "../scripts/load/stack.ts";
import { loadScenario, type LoadOptions, type ScenarioPlan } from "./load.ts";
import { findNginx } from "../scripts/cluster/nginx.ts";
import { startNginx } from "./floors/nginx.ts";
import type { Recorder } from "./recorder.ts";
import { createKey, startHello } from "./servers.ts";

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
  const { figures, scenario } = recorder;
  const databasePath = join(dataDir, "vics.sqlite");
  const timing = context.quick
    ? { warmUpSeconds: 1, seconds: 3 }
    : { warmUpSeconds: 2, seconds: 10 };
  // A fresh key allows 100,000 requests a minute: stay under it, so no scenario meets a 429.
  const keyed = { ...timing, maxRequests: PLAN_LIMITS.internal * 0.9 };
  const pick = () => sample[Math.floor(Math.random() * sample.length)] ?? "";
  const withKey = (scenarioName: string) => ({
    ...CLIENT_HEADERS,
    [API_KEY_HEADER]: createKey(databasePath, scenarioName),
  });
  const load = async (
    name: string,
    options: LoadOptions,
    plan: ScenarioPlan = keyed,
    pids: Record<string, number | undefined> = {},
  ) => {
    // The load generator's own CPU too: it shares the machine's cores with the servers.
    const run = await loadScenario(name, options, plan, {
      ...pids,
      autocannon: process.pid,
    });
    const cpu = Object.entries(run.cpuUsPerRequest)
      .map(([processName, us]) => `${processName} ${Math.round(us)}`)
      .join(", ");
    recorder.say(
      `  ${Math.round(run.rps)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms (${run.requests} requests); CPU µs/request: ${cpu}`,
    );
    return run;
  };
  const insurance = () => PROXY_PREFIX + paths.insurance(pick());

  await scenario(["hello_rps", "hello_cpu_us_per_req"], async () => {
    const hello = await startHello();
    try {
      // No rate limit here: the cap only bounds a run that would otherwise not end.
      const plan = { ...timing, maxRequests: 2_000_000 };
      const options = { url: hello.url, headers: {}, path: () => "/" };
      const run = await load("hello", options, plan, {
        hello: hello.process.pid,
      });
      figures.hello_rps = run.rps;
      figures.hello_cpu_us_per_req = run.cpuUsPerRequest.hello;
    } finally {
      await hello.stop();
    }
  });

  await scenario(
    [
      "service_rps",
      "service_p50_ms",
      "service_p99_ms",
      "service_cpu_us_per_req",
    ],
    async () => {
      const options = {
        url: stack.serviceUrl,
        headers: withKey("insurance"),
        path: () => paths.insurance(pick()),
      };
      const run = await load("service insurance", options, keyed, {
        service: stack.service.pid,
      });
      figures.service_rps = run.rps;
      figures.service_cpu_us_per_req = run.cpuUsPerRequest.service;
      figures.service_p50_ms = run.p50Ms;
      figures.service_p99_ms = run.p99Ms;
    },
  );

  await scenario(["compliance_rps", "compliance_p99_ms"], async () => {
    const options = {
      url: stack.serviceUrl,
      headers: withKey("compliance"),
      path: () => paths.compliance(pick()),
    };
    const run = await load("service compliance", options, keyed, {
      service: stack.service.pid,
    });
    figures.compliance_rps = run.rps;
    figures.compliance_p99_ms = run.p99Ms;
  });

  // The stack's own proxy: its key has been used by nothing else. Its signed-in fleet user sends
  // every check, as the web app does: a session lookup and an audit write each.
  await scenario(
    ["proxy_rps", "proxy_p99_ms", "proxy_cpu_us_per_req"],
    async () => {
      const options = {
        url: stack.proxyUrl,
        headers: { ...CLIENT_HEADERS, Cookie: stack.cookie },
        path: insurance,
      };
      const run = await load("proxy insurance", options, keyed, {
        proxy: stack.proxy.pid,
        service: stack.service.pid,
      });
      figures.proxy_rps = run.rps;
      figures.proxy_cpu_us_per_req = run.cpuUsPerRequest.proxy;
      figures.proxy_p99_ms = run.p99Ms;
    },
  );

  const binary = findNginx();
  if (!binary) {
    figures.nginx_rps = null;
    recorder.notes.nginx_rps = "skipped: nginx is not installed";
    recorder.say("- nginx_rps: skipped, nginx is not installed");
    return;
  }
  await scenario(["nginx_rps", "nginx_p99_ms"], async () => {
    const nginx = await startNginx({
      binary,
      directory: join(dataDir, "nginx"),
      serviceUrl: stack.serviceUrl,
      key: createKey(databasePath, "nginx"),
    });
    try {
      const options = {
        url: nginx.url,
        headers: CLIENT_HEADERS,
        path: insurance,
      };
      const run = await load("nginx insurance", options, keyed, {
        service: stack.service.pid,
      });
      figures.nginx_rps = run.rps;
      figures.nginx_p99_ms = run.p99Ms;
    } finally {
      await nginx.stop();
    }
  });
}
