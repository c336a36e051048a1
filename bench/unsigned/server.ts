// The proxy as it was before staff sign-in, for the bench's "signed-in check / the same check
// without sign-in" figure: the real proxy app (createProxyApp) wired as proxy/src/index.ts wires
// it, but with a store whose session reads are answered from memory after the first and whose
// audit appends are dropped. Everything else a check goes through (the edges, the session
// cookie's parsing and hashing, the per-user limit, forwarding, the answer's contract check, the
// log line, the connection guard) runs as in the product (its key is read once, not reloaded on
// SIGHUP), so the two figures differ by the session lookup and the
// audit write, what sign-in added to each check. Never for use outside the bench: it records
// nothing.
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { guardConnections } from "@vics/server-kit/connection-guard";
import { createLogger } from "@vics/server-kit/logger";
import { openLimitStore } from "@vics/server-kit/limit-store";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import { serverTimeouts } from "@vics/server-kit/server-timeouts";
import { createProxyApp } from "../../proxy/src/app.ts";
import { loadEnv } from "../../proxy/src/env.ts";
import { createUserLimiter } from "../../proxy/src/team/limits/user-limits.ts";
import { systemClock } from "../../proxy/src/proxy-deps.ts";
import { openProxyStoreOrExit } from "../../proxy/src/team/store/open-proxy-store.ts";
import { createUpstreamPool } from "../../proxy/src/gateway/upstream/upstream-pool.ts";
import { withoutSignInCosts } from "./store.ts";

const env = loadEnv();
const logger = createLogger({
  service: "proxy",
  level: env.logLevel,
  secrets: [env.apiKey],
});
const store = withoutSignInCosts(
  await openProxyStoreOrExit(env.store, "vics-proxy", "The bench's proxy"),
);
const limits = await openLimitStore(env.rateLimitUrl, logger);
const upstream = createUpstreamPool(env.upstreamUrl);
const app = createProxyApp(
  {
    upstreamUrl: env.upstreamUrl,
    apiKey: env.apiKey,
    timeoutMs: env.timeoutMs,
    webRoot: env.webRoot,
    staffAccess: { sessionTimes: env.sessionTimes, localSignIn: true },
  },
  {
    clock: systemClock,
    store,
    limiter: createUserLimiter(env.userLimits, limits.store),
    limitStore: limits.store,
    logger,
    upstream: upstream.send,
    hashRegistration: registrationHasher(env.logHashKey),
  },
);
const server = serve({
  fetch: app.fetch,
  hostname: env.host,
  port: env.port,
  serverOptions: serverTimeouts(),
});
// As proxy/src/index.ts: the same per-connection accounting on every socket.
guardConnections(server as Server, env.connectionLimits, { logger });
