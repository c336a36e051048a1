// One-click unsubscribe from alert emails (RFC 8058), outside /api: a mail client POSTs to the
// link in the List-Unsubscribe header with no session and no app header, and a person who
// opens the link gets a page asking them to confirm (a GET never unsubscribes, so a mail
// scanner following links changes nothing). The signed token names the address and the fleets
// the email was about; the address leaves those fleets' rules, audited under its own name.
// A link out of time (unsubscribe-token.ts) gets a page saying how to stop the emails instead.
import { ALERT_PATHS } from "@vics/shared";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { recordAudit } from "../audit/audit-log.ts";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { formBody } from "../../gateway/http/json-body.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import {
  readUnsubscribeToken,
  UNSUBSCRIBE_LINK_DAYS,
  unsubscribeInTime,
  unsubscribeKey,
  type Unsubscribe,
} from "./unsubscribe-token.ts";

export function unsubscribeTakesBody(c: AppContext): boolean {
  return c.req.method === "POST" && c.req.path === ALERT_PATHS.unsubscribe;
}

const page = (title: string, body: ReturnType<typeof html>) =>
  html`<!doctype html>
    <html lang="en-GB">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} – VICS</title>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;

export function registerUnsubscribeRoutes(
  app: Hono<AppEnv>,
  deps: { store: ProxyStore; now: () => number },
): void {
  const { store } = deps;
  const read = async (c: Context<AppEnv>) =>
    readUnsubscribeToken(
      await unsubscribeKey(store),
      c.req.query("token") ?? "",
    );
  const fleets = async (what: Unsubscribe) =>
    (await Promise.all(what.fleets.map((id) => store.findFleet(id)))).filter(
      (fleet) => fleet !== undefined,
    );
  const fleetNames = async (what: Unsubscribe) =>
    (await fleets(what)).map((fleet) => fleet.name);
  // The token is genuine, only old: its address and fleets can be named.
  const expired = async (c: Context<AppEnv>, what: Unsubscribe) => {
    const pages = (await fleets(what))
      .map(
        (fleet) => html`<a href="/fleets/${fleet.id}/alerts">${fleet.name}</a>`,
      )
      .flatMap((link, i) => (i > 0 ? [", ", link] : [link]));
    return c.html(
      page(
        "This link has expired",
        html`<p>
            A link to stop alert emails works for ${UNSUBSCRIBE_LINK_DAYS} days,
            and the one in the newest alert email ${what.email} was sent works
            for as long as it is the newest: use that one.
          </p>
          <p>
            Or sign in to VICS and take ${what.email} off the alert emails on
            the alerts page of ${pages.length > 0 ? pages : "the fleet"}.
            Without an account, ask the person who added the address, or an
            admin of VICS.
          </p>`,
      ),
      410,
    );
  };
  const notValid = (c: Context<AppEnv>) =>
    c.html(
      page(
        "This link does not work",
        html`<p>
          It may have been cut short by your mail program. Ask an admin of VICS
          to take you off the fleet's alert emails.
        </p>`,
      ),
      400,
    );

  app.get(ALERT_PATHS.unsubscribe, async (c) => {
    const what = await read(c);
    if (!what) return notValid(c);
    if (!(await unsubscribeInTime(store, what, deps.now())))
      return expired(c, what);
    const names = await fleetNames(what);
    const action = `${ALERT_PATHS.unsubscribe}?token=${encodeURIComponent(c.req.query("token")!)}`;
    return c.html(
      page(
        "Stop these alert emails?",
        html`<p>
            ${what.email} will get no more alert emails about
            ${names.length > 0 ? names.join(", ") : "these fleets"}.
          </p>
          <form method="post" action="${action}">
            <button type="submit">Stop these emails</button>
          </form>`,
      ),
    );
  });

  // The mail client's one field (List-Unsubscribe=One-Click), never read: a form's limit.
  app.post(ALERT_PATHS.unsubscribe, formBody, async (c) => {
    const what = await read(c);
    if (!what) return notValid(c);
    const at = deps.now();
    if (!(await unsubscribeInTime(store, what, at))) return expired(c, what);
    const left: string[] = [];
    for (const fleetId of what.fleets) {
      const [fleet, rule] = await Promise.all([
        store.findFleet(fleetId),
        store.alertRule(fleetId),
      ]);
      if (!fleet || !rule?.emails.includes(what.email)) continue;
      await store.setAlertRule(
        fleetId,
        { ...rule, emails: rule.emails.filter((e) => e !== what.email) },
        at,
      );
      left.push(fleet.name);
    }
    await recordAudit(store, c, at, {
      action: "alert-rule.unsubscribe",
      outcome: "ok",
      user: { id: null, email: what.email },
      detail: { fleets: left.join(", ") },
    });
    return c.html(
      page(
        "You will get no more of these emails",
        html`<p>
          ${what.email} is off the alert emails of
          ${left.length > 0 ? left.join(", ") : "these fleets (it was already)"}.
        </p>`,
      ),
    );
  });
}
