import { describe, expect, it } from "vitest";
import {
  alertMail,
  type AlertMailInput,
  type MailAlert,
} from "./alert-mail.ts";

const vans = { id: "f-1", name: "Vans north" };
const cars = { id: "f-2", name: "Pool cars" };

const lapsed = (registration: string, fleet = vans): MailAlert => ({
  alert: {
    id: 1,
    registration,
    kind: "not-insured",
    detail: {
      how: "lapsed",
      policy: "POL-1",
      insurer: "Northwind Mutual",
      endedOn: "2026-11-19",
    },
    openedAt: Date.parse("2026-11-20T06:00:00Z"),
  },
  fleet,
});

const motEnding = (registration: string, fleet = vans): MailAlert => ({
  alert: {
    id: 2,
    registration,
    kind: "ending",
    detail: { area: "mot", date: "2027-03-17", threshold: 14 },
    openedAt: Date.parse("2027-03-03T06:00:00Z"),
  },
  fleet,
});

const input = (change: Partial<AlertMailInput>): AlertMailInput => ({
  from: "VICS <alerts@vics.example>",
  to: "manager@fleet.example",
  timing: "instant",
  day: "2027-03-03",
  alerts: [lapsed("AB12CDE")],
  appUrl: "https://vics.example",
  unsubscribeUrl: "https://vics.example/api/unsubscribe/tok-123",
  messageId: "<alert-1@vics.example>",
  ...change,
});

describe("alertMail subjects", () => {
  it("names the vehicle and what happened when one vehicle needs the manager now", () => {
    expect(alertMail(input({})).subject).toBe(
      "VICS: AB12 CDE needs you now – Not insured: policy POL-1 lapsed on 19 November 2026",
    );
  });

  it("counts the vehicles, not the alerts, when several need the manager now", () => {
    const mail = alertMail(
      input({
        alerts: [lapsed("AB12CDE"), lapsed("XY65ZZT"), motEnding("XY65ZZT")],
      }),
    );
    expect(mail.subject).toBe("VICS: 2 vehicles need you now");
  });

  it("a digest gives its day in words and the number of changes", () => {
    expect(
      alertMail(
        input({
          timing: "digest",
          alerts: [lapsed("AB12CDE"), motEnding("XY65ZZT", cars)],
        }),
      ).subject,
    ).toBe("VICS daily summary for 3 March 2027: 2 changes");
    expect(alertMail(input({ timing: "digest" })).subject).toBe(
      "VICS daily summary for 3 March 2027: 1 change",
    );
  });
});

describe("alertMail body", () => {
  const mail = alertMail(
    input({
      timing: "digest",
      alerts: [
        lapsed("AB12CDE"),
        motEnding("XY65ZZT", cars),
        motEnding("AB12CDE"),
      ],
    }),
  );
  const text = String(mail.text);
  const html = String(mail.html);

  it("says each alert in the web app's words, grouped by fleet, each with its links", () => {
    expect(text).toContain(
      [
        "Vans north: https://vics.example/fleets/f-1",
        "- AB12 CDE: Not insured: policy POL-1 lapsed on 19 November 2026",
        "  https://vics.example/fleets/vehicles/AB12CDE",
        "- AB12 CDE: MOT ends within 14 days (17 March 2027)",
        "  https://vics.example/fleets/vehicles/AB12CDE",
        "",
        "Pool cars: https://vics.example/fleets/f-2",
        "- XY65 ZZT: MOT ends within 14 days (17 March 2027)",
        "  https://vics.example/fleets/vehicles/XY65ZZT",
      ].join("\n"),
    );
    expect(html).toContain(
      '<li><a href="https://vics.example/fleets/vehicles/XY65ZZT">XY65 ZZT</a>: MOT ends within 14 days (17 March 2027)</li>',
    );
    expect(html).toContain(
      '<h2><a href="https://vics.example/fleets/f-2">Pool cars</a></h2>',
    );
  });

  it("says how to stop these emails in both parts", () => {
    expect(text).toContain(
      "To stop them, open this link: https://vics.example/api/unsubscribe/tok-123",
    );
    expect(html).toContain(
      '<a href="https://vics.example/api/unsubscribe/tok-123">unsubscribe from these emails</a>',
    );
  });

  it("loads nothing from elsewhere: no images, no styles, no scripts", () => {
    expect(html).not.toMatch(/<img|<link|<script|src=|url\(/i);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-GB">/);
  });

  it("encodes a registration and a fleet id in its links, and drops an app URL's trailing slash", () => {
    const odd = alertMail(
      input({
        appUrl: "https://vics.example/",
        alerts: [lapsed("AB 12/CD", { id: "a b", name: "Odd" })],
      }),
    );
    expect(String(odd.text)).toContain(
      "https://vics.example/fleets/vehicles/AB%2012%2FCD",
    );
    expect(String(odd.text)).toContain("https://vics.example/fleets/a%20b");
    expect(String(odd.text)).not.toContain("example//fleets");
  });
});

describe("alertMail escaping", () => {
  it("escapes a fleet's name in the HTML, and keeps it as written in the text", () => {
    const name = `<script>alert("x")</script> & 'co'`;
    const mail = alertMail(
      input({ alerts: [lapsed("AB12CDE", { id: "f-9", name })] }),
    );
    const html = String(mail.html);
    expect(html).not.toContain("<script>");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;",
    );
    expect(String(mail.text)).toContain(
      `${name}: https://vics.example/fleets/f-9`,
    );
  });

  it("escapes an upstream's words (an insurer's name) in the HTML", () => {
    const mail = alertMail(
      input({
        alerts: [
          {
            alert: {
              id: 3,
              registration: "AB12CDE",
              kind: "insured-again",
              detail: { policy: "P-2", insurer: 'Evil <b onclick="x">' },
              openedAt: 0,
            },
            fleet: vans,
          },
        ],
      }),
    );
    expect(String(mail.html)).toContain(
      "Insured again: policy P-2 with Evil &lt;b onclick=&quot;x&quot;&gt;",
    );
    expect(String(mail.html)).not.toContain("<b ");
  });
});

describe("alertMail headers", () => {
  it("offers one-click unsubscribe (RFC 8058), carries its message id and addresses", () => {
    const mail = alertMail(input({}));
    expect(mail.headers).toMatchObject({
      "List-Unsubscribe": "<https://vics.example/api/unsubscribe/tok-123>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Auto-Submitted": "auto-generated",
    });
    expect(mail).toMatchObject({
      from: "VICS <alerts@vics.example>",
      to: "manager@fleet.example",
      messageId: "<alert-1@vics.example>",
    });
  });

  it("keeps the subject one line, whatever an upstream's words held", () => {
    const mail = alertMail(
      input({
        alerts: [
          {
            alert: {
              id: 4,
              registration: "AB12CDE",
              kind: "insured-again",
              detail: { policy: "P-2", insurer: "Bad\r\nBcc: x@evil.example" },
              openedAt: 0,
            },
            fleet: vans,
          },
        ],
      }),
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});

describe("alertMail refuses what it cannot send", () => {
  it.each([
    [{ alerts: [] }, "at least one alert"],
    [{ day: "3 March" }, "day is not a date"],
    [{ appUrl: "vics.example" }, "appUrl is not a URL"],
    [
      { unsubscribeUrl: "javascript:alert(1)" },
      "unsubscribeUrl is not an http(s) URL",
    ],
  ] as const)("%#: %o", (change, message) => {
    expect(() => alertMail(input(change))).toThrow(message);
  });
});
