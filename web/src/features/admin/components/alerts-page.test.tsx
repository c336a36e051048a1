import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { ALERT_PATHS, type Delivery, type Webhook } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { server } from "../../../testing/server.ts";

const SLOW = { timeout: 10_000 };

const webhook = (change: Partial<Webhook> = {}): Webhook => ({
  id: 3,
  url: "https://hooks.example.org/vics",
  description: "Ops chat",
  allowPrivate: false,
  createdAt: "2026-11-20T09:00:00.000Z",
  failingSince: null,
  lastError: null,
  previousSecretUntil: null,
  ...change,
});

const delivery = (change: Partial<Delivery> = {}): Delivery => ({
  id: 41,
  channel: "email",
  to: "ann@example.org",
  timing: "instant",
  status: "sent",
  note: null,
  createdAt: "2026-11-27T06:02:00.000Z",
  nextAttemptAt: null,
  fleet: { id: "fleet-1", name: "North depot" },
  registration: "AB12CDE",
  alertId: 7,
  attempts: [
    { at: "2026-11-27T06:02:05.000Z", ok: true, detail: "250 accepted" },
  ],
  ...change,
});

const FAILED = delivery({
  id: 42,
  channel: "webhook",
  to: "Ops chat",
  status: "failed",
  registration: "LP08SED",
  note: "Out of retries",
  attempts: [
    { at: "2026-11-27T06:02:05.000Z", ok: false, detail: "HTTP 500" },
    { at: "2026-11-27T18:02:05.000Z", ok: false, detail: "connection refused" },
  ],
});

/** Serves the page; returns the status filters the delivery log was asked for, in order. */
function serveAlerts({
  webhooks = [] as Webhook[],
  deliveries = [] as Delivery[],
} = {}) {
  const asked: string[] = [];
  server.use(
    http.get(ALERT_PATHS.mail, () =>
      json({ digestTime: "07:00", emailOn: true }),
    ),
    http.get(ALERT_PATHS.webhooks, () => json({ webhooks })),
    http.get(ALERT_PATHS.deliveries, ({ request }) => {
      const status = new URL(request.url).searchParams.get("status");
      asked.push(status ?? "all");
      return json({
        deliveries: deliveries.filter((d) => !status || d.status === status),
      });
    }),
  );
  return asked;
}

const alertsPage = () =>
  renderRoute("/admin/alerts", {
    session: sessionFixture(userWithRole("admin")),
  });

const region = (name: string) => screen.findByRole("region", { name }, SLOW);

describe("the alerts page", () => {
  it("adds a webhook and shows its secret once", async () => {
    serveAlerts();
    let sent: unknown;
    server.use(
      http.post(ALERT_PATHS.webhooks, async ({ request }) => {
        sent = await request.json();
        serveAlerts({ webhooks: [webhook({ allowPrivate: true })] });
        return json({ webhook: webhook(), secret: "whsec_c2VjcmV0" }, 201);
      }),
    );
    const { user } = alertsPage();
    const section = await region("Webhooks");
    expect(await within(section).findByText(/^No webhooks yet/)).toBeVisible();
    await user.type(
      within(section).getByRole("textbox", { name: "Address" }),
      "https://hooks.example.org/vics",
    );
    await user.type(
      within(section).getByRole("textbox", { name: "What it is for" }),
      "Ops chat",
    );
    const allow = within(section).getByRole("checkbox", {
      name: "Allow a private or loopback address",
    });
    expect(allow).toHaveAccessibleDescription(
      /Only for a receiver inside your own network/,
    );
    await user.click(allow);
    await user.click(
      within(section).getByRole("button", { name: "Add the webhook" }),
    );
    const notice = await within(section).findByRole("region", {
      name: "Secret for Ops chat",
    });
    expect(notice).toHaveFocus();
    expect(
      within(notice).getByText("Copy it now: VICS will not show it again."),
    ).toBeVisible();
    expect(within(notice).getByRole("textbox", { name: "Secret" })).toHaveValue(
      "whsec_c2VjcmV0",
    );
    expect(sent).toEqual({
      url: "https://hooks.example.org/vics",
      description: "Ops chat",
      allowPrivate: true,
    });
    const table = await within(section).findByRole("table", {
      name: "The team’s webhooks",
    });
    expect(within(table).getAllByRole("row")[1]).toHaveTextContent(
      "Ops chatA private address is allowedhttps://hooks.example.org/vicsWorking",
    );
    // The form is ready for another.
    expect(
      within(section).getByRole("textbox", { name: "Address" }),
    ).toHaveValue("");

    await user.click(within(notice).getByRole("button", { name: "Done" }));
    // Nowhere on the page: not in its words, nor in any field's value.
    expect(document.body).not.toHaveTextContent("whsec_c2VjcmV0");
    expect(
      screen.queryByDisplayValue("whsec_c2VjcmV0"),
    ).not.toBeInTheDocument();
    expect(
      within(section).getByRole("heading", { name: "Webhooks" }),
    ).toHaveFocus();
  }, 20_000);

  it("says why an address is refused, at its field", async () => {
    serveAlerts();
    server.use(
      http.post(ALERT_PATHS.webhooks, () =>
        json(
          {
            ...problemFixture("MALFORMED_REQUEST", 400),
            detail:
              "127.0.0.1 is a loopback address: VICS posts only to public addresses unless a private one is allowed for this webhook.",
          },
          400,
        ),
      ),
    );
    const { user } = alertsPage();
    const section = await region("Webhooks");
    const address = within(section).getByRole("textbox", { name: "Address" });
    await user.type(address, "http://127.0.0.1:9000/hook");
    await user.type(
      within(section).getByRole("textbox", { name: "What it is for" }),
      "Local",
    );
    await user.click(
      within(section).getByRole("button", { name: "Add the webhook" }),
    );
    await waitFor(() =>
      expect(address).toHaveAccessibleDescription(
        expect.stringContaining("127.0.0.1 is a loopback address"),
      ),
    );
    expect(address).toBeInvalid();
    expect(
      within(section).getByRole("link", { name: /127\.0\.0\.1 is a loopback/ }),
    ).toHaveAttribute("href", "#webhook-url");
  }, 20_000);

  it("rotates a webhook's secret, and removes one when asked twice", async () => {
    serveAlerts({
      webhooks: [
        webhook({
          failingSince: "2026-11-27T18:02:05.000Z",
          lastError: "connection refused",
        }),
      ],
    });
    const rotated = webhook({
      previousSecretUntil: new Date(Date.now() + 86_400_000).toISOString(),
    });
    let removed = 0;
    server.use(
      http.post(`${ALERT_PATHS.webhooks}/:id/rotate`, () =>
        json({ webhook: rotated, secret: "whsec_bmV3" }),
      ),
      http.delete(`${ALERT_PATHS.webhooks}/:id`, ({ params }) => {
        removed = Number(params.id);
        serveAlerts();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = alertsPage();
    const section = await region("Webhooks");
    const row = within(
      await within(section).findByRole("table", {
        name: "The team’s webhooks",
      }),
    ).getAllByRole("row")[1]!;
    expect(row).toHaveTextContent(
      /Failing since .*Last error: connection refused/,
    );
    expect(row).toHaveTextContent("No old secret");

    await user.click(
      within(row).getByRole("button", { name: "Rotate secret Ops chat" }),
    );
    const notice = await within(section).findByRole("region", {
      name: "New secret for Ops chat",
    });
    expect(notice).toHaveTextContent(/The old secret signs too until/);
    expect(within(notice).getByRole("textbox", { name: "Secret" })).toHaveValue(
      "whsec_bmV3",
    );

    await user.click(
      within(row).getByRole("button", { name: "Remove Ops chat" }),
    );
    const confirm = within(row).getByRole("group", {
      name: "Confirm removing Ops chat",
    });
    expect(removed).toBe(0);
    await user.click(
      within(confirm).getByRole("button", { name: "Yes, remove Ops chat" }),
    );
    expect(
      (await within(section).findByText("Ops chat is removed.")).parentElement,
    ).toHaveAttribute("role", "status");
    expect(removed).toBe(3);
    expect(await within(section).findByText(/^No webhooks yet/)).toBeVisible();
  }, 20_000);

  it("lists the deliveries with their attempts, and replays a failed one", async () => {
    serveAlerts({ deliveries: [FAILED, delivery()] });
    let replayed: string | undefined;
    server.use(
      http.post(`${ALERT_PATHS.deliveries}/:id/replay`, ({ params }) => {
        replayed = String(params.id);
        serveAlerts({
          deliveries: [
            { ...FAILED, status: "pending", note: null },
            delivery(),
          ],
        });
        return json({ replayed: 42 }, 202);
      }),
    );
    const { user } = alertsPage();
    const section = await region("Delivery log");
    const table = await within(section).findByRole("table", {
      name: "Deliveries, newest first",
    });
    const [, failed, sent] = within(table).getAllByRole("row");
    expect(failed).toHaveTextContent("North depot");
    expect(failed).toHaveTextContent("LP08 SED");
    expect(failed).toHaveTextContent("Webhook");
    expect(failed).toHaveTextContent("Failed");
    expect(failed).toHaveTextContent(/2 attempts.*connection refused/);
    expect(failed).toHaveTextContent("Out of retries");
    expect(sent).toHaveTextContent(
      /Emailat once.*ann@example.org.*Sent.*1 attempt/,
    );
    expect(
      within(sent!).queryByRole("button", { name: "Replay" }),
    ).not.toBeInTheDocument();

    const replay = within(failed!).getByRole("button", { name: "Replay" });
    expect(replay).toHaveAccessibleDescription("Ops chat");
    await user.click(replay);
    expect(
      (
        await within(section).findByText(
          "The delivery to Ops chat about LP08 SED is being sent again.",
        )
      ).parentElement,
    ).toHaveAttribute("role", "status");
    expect(replayed).toBe("42");
    await waitFor(() =>
      expect(within(section).getAllByRole("row")[1]).toHaveTextContent(
        "Waiting",
      ),
    );
    expect(
      within(section).queryByRole("button", { name: "Replay" }),
    ).not.toBeInTheDocument();
  }, 20_000);

  it("filters the delivery log by status", async () => {
    const asked = serveAlerts({ deliveries: [FAILED, delivery()] });
    const { user } = alertsPage();
    const section = await region("Delivery log");
    await within(section).findByRole("table", {
      name: "Deliveries, newest first",
    });
    await user.selectOptions(
      within(section).getByRole("combobox", { name: "Show" }),
      "Failed (out of retries)",
    );
    await waitFor(() =>
      expect(within(section).getAllByRole("row")).toHaveLength(2),
    );
    expect(within(section).getAllByRole("row")[1]).toHaveTextContent("Failed");
    await user.selectOptions(
      within(section).getByRole("combobox", { name: "Show" }),
      "Dropped (no longer wanted)",
    );
    expect(
      await within(section).findByText("No deliveries were dropped."),
    ).toBeVisible();
    expect(asked).toEqual(["all", "failed", "dropped"]);
  }, 20_000);

  it("says when email is off, and sets the digest's time", async () => {
    serveAlerts();
    let sent: unknown;
    server.use(
      http.get(ALERT_PATHS.mail, () =>
        json({ digestTime: "07:00", emailOn: false }),
      ),
      http.patch(ALERT_PATHS.mail, async ({ request }) => {
        sent = await request.json();
        return json({ digestTime: "06:30", emailOn: false });
      }),
    );
    const { user } = alertsPage();
    const section = await region("Email");
    expect(
      await within(section).findByText(
        /^Email is off: no mail server is set up/,
      ),
    ).toBeVisible();
    const time = within(section).getByRole("textbox", {
      name: "Daily digest time",
    });
    expect(time).toHaveValue("07:00");
    await user.clear(time);
    await user.type(time, "6.30");
    await user.click(
      within(section).getByRole("button", { name: "Save the time" }),
    );
    expect(time).toHaveAccessibleDescription(
      expect.stringContaining("Give the time as HH:MM"),
    );
    expect(sent).toBeUndefined();
    await user.clear(time);
    await user.type(time, "06:30");
    await user.click(
      within(section).getByRole("button", { name: "Save the time" }),
    );
    expect(
      (
        await within(section).findByText(
          "The daily digest now goes at 06:30, UK time.",
        )
      ).parentElement,
    ).toHaveAttribute("role", "status");
    expect(sent).toEqual({ digestTime: "06:30" });
  }, 20_000);

  it("says when the email settings cannot be read, and tries again", async () => {
    serveAlerts();
    server.use(
      http.get(ALERT_PATHS.mail, () =>
        json(problemFixture("SERVICE_UNAVAILABLE", 503), 503),
      ),
    );
    const { user } = alertsPage();
    const section = await region("Email");
    const notice = await within(section).findByRole("alert", {}, SLOW);
    expect(notice).toHaveTextContent("The email settings cannot be shown");
    serveAlerts();
    await user.click(
      within(section).getByRole("button", { name: "Try again" }),
    );
    expect(
      await within(section).findByText(/^Email is on: alerts are emailed/),
    ).toBeVisible();
    expect(within(section).queryByRole("alert")).not.toBeInTheDocument();
  }, 20_000);

  it("is for admins only", async () => {
    renderRoute("/admin/alerts", {
      session: sessionFixture(userWithRole("fleet")),
    });
    expect(
      await screen.findByRole("heading", { name: /not allowed|role/i }, SLOW),
    ).toBeVisible();
  });
});
