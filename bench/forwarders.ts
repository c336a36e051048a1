// The three forwarders of a signed-in check, as cost rounds' contestants (cost-rounds.ts): the
// careful BFF with sessions (the floor, bench/floors/), the proxy without sign-in's costs
// (bench/unsigned/) and the stack's own proxy. Both the whole bench (load-scenarios.ts) and its
// `--only checks` section (checks.ts) load them, so the two measure the same servers the same way.
import { join } from "node:path";
import { CLIENT_HEADER } from "@vics/shared";
import type { Stack } from "../scripts/load/stack.ts";
import type { Child } from "../scripts/load/children.ts";
import type { CostServer } from "./cost-rounds.ts";
import { startCarefulBff } from "./floors/careful-bff.ts";
import type { ScenarioPlan } from "./load.ts";
import { startUnsignedProxy } from "./servers.ts";

export interface ForwarderContext {
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
