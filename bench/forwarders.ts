// The three forwarders of a signed-in check, as cost rounds' contestants (cost-rounds.ts): the
// careful BFF with sessions (the floor, bench/floors/), the proxy without sign-in's costs
// (bench/unsigned/) and the stack's own proxy; and the rounds' plan and the tracker of the
// servers started for them. Both the whole bench (load-scenarios.ts) and its `--only checks`
// section (checks.ts) take them from here, so the two measure the same servers the same way.
import { join } from "node:path";
import { CLIENT_HEADER, PLAN_LIMITS } from "@vics/shared";
import type { Stack } from "../scripts/load/stack.ts";
import type { Child } from "../scripts/load/children.ts";
import type { CostServer } from "./cost-rounds.ts";
import { startCarefulBff } from "./floors/careful-bff.ts";
import type { ScenarioPlan } from "./load.ts";
import { startUnsignedProxy } from "./servers.ts";

interface ForwarderContext {
  stack: Stack;
  dataDir: string;
  /** A new key on the internal plan, named for the scenario. */
  key: (name: string) => string;
  /** Each request's path under the proxy prefix. */
  proxied: () => string;
  plan: ScenarioPlan;
  /** Starts a server and keeps it to be stopped after the rounds. */
  start: <T extends Child>(child: Promise<T>) => Promise<T>;
}

const CLIENT_HEADERS = { [CLIENT_HEADER]: "bench" };

/** How the cost rounds load each server: how many rounds, each one's plan, and the warm-up. */
export interface CostRoundsPlan {
  rounds: number;
  /** Each round's load of a server without a key (no rate limit to keep under). */
  timing: { warmUpSeconds: number; seconds: number };
  /** Each round's load of a server with a key of its own. */
  keyed: ScenarioPlan;
  /** Each server's unmeasured requests before the rounds, the same for every server. */
  warmUp: { requests: number; seconds: number };
}

export function costRoundsPlan(quick: boolean): CostRoundsPlan {
  // Five rounds either way: with three, one noisy round of the two in a ratio moved its median
  // by a third (1.06 and 1.70 for the same code); --quick only shortens each load.
  const rounds = 5;
  const timing = quick
    ? { warmUpSeconds: 1, seconds: 3 }
    : { warmUpSeconds: 2, seconds: 6 };
  const warmUp = { requests: 20_000, seconds: quick ? 8 : 15 };
  // A key allows 100,000 requests a minute: each keyed server keeps its key for the warm-up
  // and every round, so all of them together stay under 90% of that, and no server meets a
  // 429. The warm-up (cost-rounds.ts) takes a fixed share; the rounds split the rest.
  const keyBudget = PLAN_LIMITS.internal * 0.9;
  return {
    rounds,
    timing,
    keyed: {
      ...timing,
      maxRequests: Math.floor((keyBudget - warmUp.requests) / rounds),
    },
    warmUp,
  };
}

/**
 * The servers a scenario starts, to be stopped once it is over, the last started first (a
 * forwarder before what it forwards to), whether the scenario ended or failed.
 */
export function startedServers() {
  const started: { stop(): Promise<void> }[] = [];
  return {
    /** Starts a server and keeps it to be stopped. */
    start: async <T extends { stop(): Promise<void> }>(child: Promise<T>) => {
      const server = await child;
      started.push(server);
      return server;
    },
    stopAll: async () => {
      for (const server of started.toReversed()) await server.stop();
    },
  };
}

export async function signedInForwarders(
  context: ForwarderContext,
): Promise<CostServer[]> {
  const { stack, dataDir, key, proxied, plan, start } = context;
  const servicePid = { service: stack.service.pid };
  const bffSessions = await start(
    startCarefulBff({
      upstreamUrl: stack.serviceUrl,
      key: key("bff-sessions"),
      sessions: { databasePath: join(dataDir, "bff-sessions.sqlite") },
    }),
  );
  const unsigned = await start(
    startUnsignedProxy(
      stack.serviceUrl,
      key("proxy-unsigned"),
      join(dataDir, "proxy-unsigned.sqlite"),
    ),
  );
  return [
    {
      name: "bff_sessions",
      options: {
        url: bffSessions.url,
        headers: { ...CLIENT_HEADERS, Cookie: bffSessions.cookie ?? "" },
        path: proxied,
      },
      pid: bffSessions.process.pid,
      alsoPids: servicePid,
      plan,
    },
    {
      name: "proxy_unsigned",
      options: {
        url: unsigned.url,
        headers: { ...CLIENT_HEADERS, Cookie: unsigned.cookie },
        path: proxied,
      },
      pid: unsigned.process.pid,
      alsoPids: servicePid,
      plan,
    },
    // The stack's own proxy: its key has been used by nothing else. Its signed-in fleet user
    // sends every check, as the web app does: a session lookup and an audit write each.
    {
      name: "proxy",
      options: {
        url: stack.proxyUrl,
        headers: { ...CLIENT_HEADERS, Cookie: stack.cookie },
        path: proxied,
      },
      pid: stack.proxy.pid,
      alsoPids: servicePid,
      plan,
    },
  ];
}
