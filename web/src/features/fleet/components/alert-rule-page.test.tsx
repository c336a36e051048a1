import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { http } from "msw";
import {
  ALERT_PATHS,
  DEFAULT_ALERT_RULE,
  type AlertRule,
  type SavedFleet,
} from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { server } from "../../../testing/server.ts";

const SLOW = { timeout: 10_000 };

const fleet: SavedFleet = {
  id: "fleet-1",
  name: "North depot",
  vehicleCount: 0,
  columns: [],
  version: 1,
  created: { at: "2026-11-20T09:00:00.000Z", by: null },
  updated: { at: "2026-11-26T15:30:00.000Z", by: null },
  vehicles: [],
};

const WEBHOOKS = [
  { id: 3, description: "Ops chat", failing: false },
  { id: 4, description: "Night desk", failing: true },
];

function serveRule(
  answer: { rule?: AlertRule; emailOn?: boolean; webhooks?: unknown[] } = {},
) {
  const sent: unknown[] = [];
  server.use(
    http.get(ALERT_PATHS.rule(fleet.id), () =>
      json({
        fleet: { id: fleet.id, name: fleet.name },
        rule: answer.rule ?? DEFAULT_ALERT_RULE,
        emailOn: answer.emailOn ?? true,
        webhooks: answer.webhooks ?? WEBHOOKS,
      }),
    ),
    http.put(ALERT_PATHS.rule(fleet.id), async ({ request }) => {
      const rule = await request.json();
      sent.push(rule);
      return json({ rule });
    }),
  );
  return sent;
}

const rulePage = () =>
  renderRoute("/fleets/fleet-1/alerts", {
    session: sessionFixture(userWithRole("fleet")),
  });

const group = (name: string) => screen.getByRole("group", { name });
const KINDS = "Send these alerts by email and webhook";
/** The page's own live region (the app's header has others). */
const savedNote = () => within(screen.getByRole("main")).getByRole("status");

describe("a fleet's alert rule", () => {
  it("shows a fleet that never set one: every kind and threshold, the urgent kinds at once, no one yet", async () => {
    serveRule({ emailOn: false });
    rulePage();
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Fleet North depot Alert rule" },
        SLOW,
      ),
    ).toBeVisible();
    expect(document.title).toBe("Alert rule – North depot – Fleets – VICS");
    expect(screen.getByRole("link", { name: "North depot" })).toHaveAttribute(
      "href",
      "/fleets/fleet-1",
    );
    const kinds = within(group(KINDS)).getAllByRole("checkbox");
    expect(kinds).toHaveLength(8);
    for (const box of kinds) expect(box).toBeChecked();
    expect(
      within(group(KINDS)).getByRole("checkbox", {
        name: "Not insured (lapsed, cancelled, none)",
      }),
    ).toBeChecked();
    const ending = group("When insurance, MOT or road tax is ending, alert");
    expect(
      within(ending)
        .getAllByRole("checkbox", { checked: true })
        .map((box) => box.closest("div")?.textContent),
    ).toEqual([
      "30 days before",
      "14 days before",
      "7 days before",
      "1 day before",
      "On the day",
    ]);
    expect(
      screen.getByRole("textbox", { name: "Email addresses" }),
    ).toHaveValue("");
    const instant = within(group("Email these at once"));
    expect(
      instant.getByRole("checkbox", { name: "MOT expired" }),
    ).toBeChecked();
    expect(
      instant.getByRole("checkbox", { name: "New fine" }),
    ).not.toBeChecked();
    expect(
      screen.getByText(
        "No mail server is set up yet: emails will wait until an admin sets one up.",
      ),
    ).toBeVisible();
    const webhooks = within(
      group("Send this fleet’s alerts to these webhooks"),
    );
    expect(
      webhooks.getByRole("checkbox", { name: "Ops chat" }),
    ).not.toBeChecked();
    expect(
      webhooks.getByRole("checkbox", { name: "Night desk Failing" }),
    ).not.toBeChecked();
    // The live region is there before anything is saved.
    expect(savedNote()).toHaveTextContent("");
  });

  it("saves the kinds, thresholds, addresses, what goes at once and the webhooks chosen", async () => {
    const sent = serveRule();
    const { user } = rulePage();
    await screen.findByRole("group", { name: KINDS }, SLOW);
    await user.click(
      within(group(KINDS)).getByRole("checkbox", { name: "Insured again" }),
    );
    await user.click(screen.getByRole("checkbox", { name: "30 days before" }));
    await user.click(screen.getByRole("checkbox", { name: "On the day" }));
    await user.click(screen.getByRole("textbox", { name: "Email addresses" }));
    await user.paste("Ann@Example.org\nbob@example.org\n");
    const instant = within(group("Email these at once"));
    // An unticked kind cannot go at once.
    expect(
      instant.queryByRole("checkbox", { name: "Insured again" }),
    ).not.toBeInTheDocument();
    await user.click(instant.getByRole("checkbox", { name: "New fine" }));
    await user.click(
      instant.getByRole("checkbox", { name: "No longer found" }),
    );
    await user.click(screen.getByRole("checkbox", { name: "Ops chat" }));
    await user.click(
      screen.getByRole("button", { name: "Save the alert rule" }),
    );
    expect(
      (await within(screen.getByRole("main")).findByText("Alert rule saved."))
        .parentElement,
    ).toBe(savedNote());
    expect(sent).toEqual([
      {
        kinds: [
          "not-insured",
          "ending",
          "mot-expired",
          "untaxed",
          "new-fine",
          "fines-paid",
          "not-found",
        ],
        endingDays: [14, 7, 1],
        emails: ["ann@example.org", "bob@example.org"],
        instantKinds: ["not-insured", "mot-expired", "untaxed", "new-fine"],
        webhookIds: [3],
      },
    ]);
    // As saved: the addresses as the proxy keeps them.
    expect(
      screen.getByRole("textbox", { name: "Email addresses" }),
    ).toHaveValue("ann@example.org\nbob@example.org");
    // A change after saving is not saved yet.
    await user.click(screen.getByRole("checkbox", { name: "7 days before" }));
    expect(savedNote()).toHaveTextContent("");
  }, 20_000);

  it("names a mistyped address at its field and sends nothing", async () => {
    const sent = serveRule();
    const { user } = rulePage();
    const emails = await screen.findByRole(
      "textbox",
      { name: "Email addresses" },
      SLOW,
    );
    await user.click(emails);
    await user.paste("ann@example.org\nbob.example.org");
    await user.click(
      screen.getByRole("button", { name: "Save the alert rule" }),
    );
    const summary = await screen.findByRole("alert");
    expect(summary).toHaveTextContent("There is a problem");
    expect(
      within(summary).getByRole("link", {
        name: '"bob.example.org" is not an email address',
      }),
    ).toHaveAttribute("href", "#alert-rule-emails");
    expect(emails).toHaveAccessibleDescription(
      expect.stringContaining('"bob.example.org" is not an email address'),
    );
    expect(emails).toBeInvalid();
    expect(sent).toEqual([]);
  });

  it("shows the proxy's refusal in its words", async () => {
    serveRule();
    server.use(
      http.put(ALERT_PATHS.rule(fleet.id), () =>
        json(
          {
            ...problemFixture("MALFORMED_REQUEST", 400),
            detail:
              "There is no webhook 3: it may have been removed. Reload the page to see the team's webhooks.",
          },
          400,
        ),
      ),
    );
    const { user } = rulePage();
    await user.click(
      await screen.findByRole("checkbox", { name: "Ops chat" }, SLOW),
    );
    await user.click(
      screen.getByRole("button", { name: "Save the alert rule" }),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The alert rule was not saved");
    expect(alert).toHaveTextContent(
      "There is no webhook 3: it may have been removed.",
    );
    expect(savedNote()).toHaveTextContent("");
  });

  it("says an admin must add an address outside the team's domains, and keeps what was typed", async () => {
    serveRule();
    const words =
      "me@gmail.example is outside the team's email domains (example.org): an admin must add it. Ask an admin, or use an address of the team's.";
    server.use(
      http.put(ALERT_PATHS.rule(fleet.id), () =>
        json({ ...problemFixture("FORBIDDEN", 403), detail: words }, 403),
      ),
    );
    const { user } = rulePage();
    const emails = await screen.findByRole(
      "textbox",
      { name: "Email addresses" },
      SLOW,
    );
    await user.click(emails);
    await user.paste("me@gmail.example");
    await user.click(
      screen.getByRole("button", { name: "Save the alert rule" }),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The alert rule was not saved");
    expect(alert).toHaveTextContent(words);
    expect(emails).toHaveValue("me@gmail.example");
    expect(savedNote()).toHaveTextContent("");
  });

  it("says an admin adds the team's webhooks when there are none", async () => {
    serveRule({ webhooks: [] });
    rulePage();
    expect(
      await screen.findByText(
        /Your team has no webhooks yet\. An admin adds them/,
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(
      screen.queryByText(/No mail server is set up/),
    ).not.toBeInTheDocument();
  });
});
