// A fleet's alert rule, for users with the fleet role (under /api/fleets, which needs it): which
// kinds alert, at which thresholds, to which addresses (instantly or in the digest) and to
// which of the team's webhooks. Every change is audited.
import {
  AlertRuleSchema,
  DEFAULT_ALERT_RULE,
  FLEET_PATHS,
  hasRole,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Hono } from "hono";
import { okAudit } from "../audit/audit-log.ts";
import { findFleet } from "../fleets/fleet-routes.ts";
import type { AppEnv } from "../http/app-env.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import {
  accountDomains,
  checkExternalAddresses,
  DEFAULT_ALERT_EMAIL_POLICY,
  type AlertEmailPolicy,
} from "./email-domains.ts";
import { keepWanted } from "./still-wanted.ts";

export interface AlertRuleDeps {
  store: ProxyStore;
  now: () => number;
  /** Whether alert emails go out now (a mail server, and the jobs running): else they wait. */
  emailOn: () => boolean;
  /** Addresses outside the team's email domains (email-domains.ts); unset: the defaults. */
  alertEmails?: AlertEmailPolicy;
}

export function registerAlertRuleRoutes(
  app: Hono<AppEnv>,
  deps: AlertRuleDeps,
): void {
  const { store, now } = deps;
  const path = `${FLEET_PATHS.fleets}/:id/alert-rule`;
  const audit = okAudit(store, now);

  app.get(path, async (c) => {
    const fleet = await findFleet(store, c.req.param("id")!);
    const [rule, webhooks] = await Promise.all([
      store.alertRule(fleet.id),
      store.webhooks(),
    ]);
    return c.json({
      fleet: { id: fleet.id, name: fleet.name },
      rule: rule ?? DEFAULT_ALERT_RULE,
      emailOn: deps.emailOn(),
      webhooks: webhooks.map((w) => ({
        id: w.id,
        description: w.description,
        failing: w.failingSince !== null,
      })),
    });
  });

  app.put(path, formBody, async (c) => {
    const fleet = await findFleet(store, c.req.param("id")!);
    const rule = await readJsonBody(c, AlertRuleSchema);
    const known = new Set((await store.webhooks()).map((w) => w.id));
    const unknown = rule.webhookIds.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new ProblemError(
        400,
        "MALFORMED_REQUEST",
        `There is no webhook ${unknown.join(", ")}: it may have been removed. Reload the page to see the team's webhooks.`,
      );
    const policy = deps.alertEmails ?? DEFAULT_ALERT_EMAIL_POLICY;
    checkExternalAddresses(
      rule.emails,
      ((await store.alertRule(fleet.id)) ?? DEFAULT_ALERT_RULE).emails,
      {
        domains:
          policy.domains ??
          accountDomains((await store.listUsers()).map((u) => u.email)),
        maxExternal: policy.maxExternal,
        admin: hasRole(c.get("user")!.role, "admin"),
      },
    );
    await store.setAlertRule(fleet.id, rule, now());
    // What the new rule no longer wants goes at once, not when due (a storm's queue included).
    await keepWanted(store, await store.fleetPendingDeliveries(fleet.id));
    await audit(c, "fleet.alert-rule", {
      fleet: fleet.name,
      kinds: rule.kinds.join(" "),
      emails: rule.emails.length,
      webhooks: rule.webhookIds.length,
    });
    return c.json({ rule });
  });
}
