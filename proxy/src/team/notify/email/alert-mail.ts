// The email about watched vehicles' alerts, ready for nodemailer: "instant" for what needs the
// fleet manager now, "digest" for the day's changes. Its words are @vics/shared's alertWords, so
// an email says exactly what the web app says; each alert links to its vehicle's page and its
// fleet's. One-click unsubscribe (RFC 8058) in the headers, and how to stop them in the body.
// Building it sends nothing: the delivery queue hands the result to the mailer.
import type Mail from "nodemailer/lib/mailer";
import {
  alertWords,
  formatLongDate,
  formatRegistration,
  type Alert,
  type AlertKind,
  ukMidnight,
} from "@vics/shared";
import { htmlBody, textBody, type BodyFleet } from "./mail-body.ts";

export interface MailAlert {
  alert: {
    id: number;
    registration: string;
    kind: AlertKind;
    detail: Alert["detail"];
    openedAt: number;
  };
  fleet: { id: string; name: string };
}

export interface AlertMailInput {
  from: string;
  to: string;
  timing: "instant" | "digest";
  /** The UK date ("YYYY-MM-DD") of the digest, or of the send. */
  day: string;
  /** In the order given; grouped by fleet in the order each fleet first appears. */
  alerts: readonly MailAlert[];
  /** The web app's origin, such as "https://vics.example" (a trailing slash is dropped). */
  appUrl: string;
  /** The one-click unsubscribe link: answers a POST (RFC 8058) and a GET (a person's click). */
  unsubscribeUrl: string;
  /** "<unique@host>": the queue's own, so a retry is recognisably the same message. */
  messageId: string;
}

/** The URL as written, or an error naming which input is not an http(s) URL. */
function webUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`alertMail: ${name} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`alertMail: ${name} is not an http(s) URL`);
  return url.href;
}

function fleetsOf(alerts: readonly MailAlert[], appUrl: string): BodyFleet[] {
  const fleets = new Map<string, BodyFleet>();
  for (const { alert, fleet } of alerts) {
    let group = fleets.get(fleet.id);
    if (!group) {
      group = {
        name: fleet.name,
        url: `${appUrl}/fleets/${encodeURIComponent(fleet.id)}`,
        lines: [],
      };
      fleets.set(fleet.id, group);
    }
    group.lines.push({
      registration: formatRegistration(alert.registration),
      words: alertWords(alert),
      vehicleUrl: `${appUrl}/fleets/vehicles/${encodeURIComponent(alert.registration)}`,
    });
  }
  return [...fleets.values()];
}

const plural = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;

/** One line, whatever an upstream's words held: a subject is a single header line. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function subjectOf(input: AlertMailInput, when: string): string {
  if (input.timing === "digest")
    return `VICS daily summary for ${when}: ${plural(input.alerts.length, "change", "changes")}`;
  const registrations = new Set(
    input.alerts.map(({ alert }) => alert.registration),
  );
  const [first] = input.alerts;
  if (registrations.size === 1 && first)
    return oneLine(
      `VICS: ${formatRegistration(first.alert.registration)} needs you now – ${input.alerts
        .map(({ alert }) => alertWords(alert))
        .join("; ")}`,
    );
  return `VICS: ${registrations.size} vehicles need you now`;
}

export function alertMail(input: AlertMailInput): Mail.Options {
  if (input.alerts.length === 0)
    throw new Error("alertMail: an email needs at least one alert");
  const appUrl = webUrl("appUrl", input.appUrl).replace(/\/+$/, "");
  const unsubscribeUrl = webUrl("unsubscribeUrl", input.unsubscribeUrl);
  if (ukMidnight(input.day) === undefined)
    throw new Error("alertMail: day is not a date (YYYY-MM-DD)");
  const when = formatLongDate(input.day);
  const subject = subjectOf(input, when);
  const body = {
    title: subject,
    intro:
      input.timing === "digest"
        ? `What changed for your watched vehicles on ${when}:`
        : "These watched vehicles need you now:",
    fleets: fleetsOf(input.alerts, appUrl),
    unsubscribeUrl,
  };
  return {
    from: input.from,
    to: input.to,
    subject,
    text: textBody(body),
    html: htmlBody(body),
    messageId: input.messageId,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      // Sent by a machine (RFC 3834): out-of-office replies should not answer it.
      "Auto-Submitted": "auto-generated",
    },
  };
}
