import { accessLog } from "@vics/server-kit/access-log";
import { errorHandler } from "@vics/server-kit/error-handlers";
import {
  registerProbes,
  type ReadinessChecks,
} from "@vics/server-kit/readiness";
import { ownRequestId } from "@vics/server-kit/request-id";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { CONTENT_SECURITY_POLICY } from "./gateway/http/content-security-policy.ts";
import {
  forwardedTakeBody,
  registerApiRoutes,
} from "./gateway/forward/api-routes.ts";
import { FORWARDED_OPERATIONS } from "./gateway/forward/forwarded-operations.ts";
import type { ForwardedOperation } from "./gateway/forward/operation.ts";
import { registerDataRoutes } from "./gateway/data/data-routes.ts";
import {
  fleetRoutesTakeBody,
  registerFleetRoutes,
} from "./team/fleets/fleet-routes.ts";
import type { AppEnv } from "./team/http/app-env.ts";
import { browserChecks } from "./gateway/edges/browser-checks.ts";
import { createForwarder } from "./gateway/forward/forward.ts";
import { edges } from "./gateway/edges/edges.ts";
import { hostCheck } from "./gateway/edges/host-check.ts";
import { PROXY_PROBLEMS } from "./gateway/http/problem.ts";
import { noBodyExcept } from "./gateway/edges/no-body.ts";
import { idempotentReplay } from "./gateway/forward/replay/idempotent-replay.ts";
import { ReplayCache } from "./gateway/forward/replay/replay-cache.ts";
import type { ProxyDeps } from "./proxy-deps.ts";
import { registerStaticSite } from "./gateway/static/static-site.ts";
import { registerWatchRoutes } from "./team/watch/watch-routes.ts";
import {
  DEFAULT_FLEET_CAPS,
  type FleetCaps,
} from "./team/store/fleet-store.ts";
import { registerAlertRuleRoutes } from "./team/notify/alert-rule-routes.ts";
import type { AlertEmailPolicy } from "./team/notify/email-domains.ts";
import {
  deliveryAdminTakesBody,
  registerDeliveryAdminRoutes,
} from "./team/notify/delivery-admin-routes.ts";
import {
  registerUnsubscribeRoutes,
  unsubscribeTakesBody,
} from "./team/notify/unsubscribe-routes.ts";
import {
  notificationsTakeBody,
  registerNotificationRoutes,
} from "./team/watch/notification-routes.ts";
import {
  DEFAULT_STAFF_ACCESS,
  NAVIGATION_PATHS,
  registerStaffAccess,
  staffAccessTakesBody,
  type StaffAccessSettings,
} from "./team/auth/staff-access.ts";
import { auditedForward } from "./team/audit/audited-forward.ts";
import { registerAuditRoutes } from "./team/audit/audit-routes.ts";
import { registerUserRoutes } from "./team/users/user-routes.ts";
import { requireRole } from "./team/auth/session-middleware.ts";
import type { TeamPorts } from "./gateway/ports.ts";
import { resolveClientAddress } from "./team/http/client-address.ts";
import { userLimitedForward } from "./team/limits/user-limited-forward.ts";

/** What the proxy is told: where the service is, its key, whom it answers, its limits. */
export interface ProxySettings {
  /** Base URL of the vehicle service, e.g. http://127.0.0.1:3001 (paths start /v1). */
  upstreamUrl: string;
  /**
   * The proxy's own key for the service; never sent anywhere else, never logged. A function
   * is asked on every request, so a key reloaded on SIGHUP is used from the next request on.
   */
  apiKey: string | (() => string);
  /**
   * The origin browsers use for VICS (PUBLIC_ORIGIN), e.g. https://vics.example.org: only
   * requests for its host are answered, and an Origin header must equal it. Unset: loopback
   * hosts only, and the request's own origin.
   */
  publicOrigin?: string;
  /** How long an upstream call may take, its answer read, before the proxy answers 504. */
  timeoutMs: number;
  /** The built web app (web/dist). */
  webRoot: string;
  /** Bulk answers kept for a request sent again with its Idempotency-Key (decision 028). */
  replay?: { maxBytes: number; ttlMs: number };
  /** Load balancers whose X-Forwarded-For is believed (TRUSTED_PROXIES): addresses or CIDRs. */
  trustedProxies?: readonly string[];
  /** Sign-in and sessions; unset parts take their defaults (auth/staff-access.ts). */
  staffAccess?: Partial<StaffAccessSettings>;
  /** Whether alert emails have a mail server (ALERT_SMTP_URL): without, they wait. */
  alertMailConfigured?: boolean;
  /** The team's email domains and the cap outside them (ALERT_EMAIL_DOMAINS, ...); unset: defaults. */
  alertEmails?: AlertEmailPolicy;
  /** The team's caps on saved fleets (MAX_FLEETS, MAX_WATCHED_VEHICLES); unset: the defaults. */
  fleetCaps?: FleetCaps;
  /** What /api/v1 forwards; unset: FORWARDED_OPERATIONS (a test adds its own). */
  forwarded?: readonly ForwardedOperation[];
}

const REPLAY_DEFAULTS = { maxBytes: 32 * 1024 * 1024, ttlMs: 5 * 60_000 };

/** What GET /ready asks, and the metrics' vics_ready with it: the store and the limits' Redis. */
export function readinessChecks(
  deps: Pick<ProxyDeps, "store" | "limitStore">,
): ReadinessChecks {
  return {
    database: () => deps.store.ping(),
    "rate limiter": () => deps.limitStore.ping(),
  };
}

export function createProxyApp(
  settings: ProxySettings,
  deps: ProxyDeps,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const forwarded = settings.forwarded ?? FORWARDED_OPERATIONS;
  const forwardedWithBody = forwardedTakeBody(forwarded);
  app.use(ownRequestId);
  app.use(resolveClientAddress(settings.trustedProxies ?? []));
  // Every check's log line hashes its plate: the shared hasher remembers the last 10,000.
  app.use(accessLog(deps.logger, deps.hashRegistration, deps.metrics));
  app.use(
    secureHeaders({
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
    }),
  );
  // Asked by supervisors and load balancers at the replica's own address, so before the host
  // check. /health: the process answers (liveness), and never the web app's page, which a
  // probe would read as a 200. /ready: 200 when the proxy's store and its limits' Redis
  // answer, else a 503 naming which does not.
  registerProbes(app, readinessChecks(deps));
  // The edges, in this order, before any route (docs/decisions/018-proxy-edges.md).
  app.use(
    edges({
      host: hostCheck(settings.publicOrigin),
      browser: browserChecks(settings.publicOrigin),
      navigations: NAVIGATION_PATHS,
      body: noBodyExcept(
        (c) =>
          forwardedWithBody(c) ||
          staffAccessTakesBody(c) ||
          fleetRoutesTakeBody(c) ||
          notificationsTakeBody(c) ||
          deliveryAdminTakesBody(c) ||
          unsubscribeTakesBody(c),
      ),
    }),
  );
  const now = () => deps.clock.now();
  const staffAccess: StaffAccessSettings = {
    ...DEFAULT_STAFF_ACCESS,
    linkOrigin: settings.publicOrigin ?? "http://127.0.0.1",
    ...settings.staffAccess,
  };
  // Sessions and sign-in first: every /api route mounted after needs a signed-in user.
  registerStaffAccess(app, {
    settings: staffAccess,
    store: deps.store,
    now,
    publicOrigin: settings.publicOrigin,
    limitStore: deps.limitStore,
    logger: deps.logger,
    onSignInThrottled: deps.onSignInThrottled,
  });
  registerUserRoutes(app, {
    store: deps.store,
    now,
    linkOrigin: staffAccess.linkOrigin,
  });
  registerAuditRoutes(app, deps.store, { now });

  // The gateway's ports, wired to the team's parts (gateway/ports.ts, decision 064).
  const team: TeamPorts = { requireRole };

  const { apiKey } = settings;
  const upstreamForward = createForwarder({
    upstreamUrl: settings.upstreamUrl,
    currentKey: typeof apiKey === "function" ? apiKey : () => apiKey,
    send: deps.upstream,
    timeoutMs: settings.timeoutMs,
    logger: deps.logger,
  });
  // The team's stages round the gateway's forward, each itself a Forward (the gateway's "record
  // it" port, decision 064): each check is counted against its user's own limit, then recorded
  // before its answer goes back; one refused by that limit is recorded too.
  const forward = auditedForward(
    userLimitedForward(upstreamForward, deps.limiter),
    deps.store,
    now,
  );
  const replayCache = new ReplayCache({
    ...(settings.replay ?? REPLAY_DEFAULTS),
    now,
  });
  // The data page's answers go through the same pipeline: their operations declare no check,
  // so they are neither counted nor audited as one.
  registerDataRoutes(app, forward, team);
  registerFleetRoutes(app, {
    store: deps.store,
    now,
    caps: settings.fleetCaps ?? DEFAULT_FLEET_CAPS,
    jobs: deps.watchJobs,
    logger: deps.logger,
  });
  registerWatchRoutes(app, { store: deps.store, now, jobs: deps.watchJobs });
  registerNotificationRoutes(app, deps.store);
  // Emails go out with the re-checks' jobs: on only with a mail server and the jobs running.
  const emailOn = () =>
    settings.alertMailConfigured === true &&
    deps.watchJobs?.state().running === true;
  registerAlertRuleRoutes(app, {
    store: deps.store,
    now,
    emailOn,
    alertEmails: settings.alertEmails,
  });
  registerDeliveryAdminRoutes(app, {
    store: deps.store,
    now,
    emailOn,
    deliverNow: deps.watchJobs && (() => deps.watchJobs!.deliverNow()),
  });
  registerUnsubscribeRoutes(app, { store: deps.store, now });
  registerApiRoutes(
    app,
    forward,
    idempotentReplay(replayCache),
    forwarded,
    team,
  );
  registerStaticSite(app, settings.webRoot);

  // Only the web app's paths get here (api-routes.ts answers all of /api and /v1): a page's
  // plain 404, not the API's problem document.
  app.notFound((c) => c.text("Not found", 404));
  app.onError(
    errorHandler({
      logger: deps.logger,
      internal: PROXY_PROBLEMS.internal,
      // An answer of the proxy's own is about this moment: no cache should keep it.
      headers: { "Cache-Control": "no-store" },
    }),
  );
  return app;
}
