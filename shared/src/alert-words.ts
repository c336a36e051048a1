// A watched vehicle's alert in the words a fleet manager acts on: never a raw kind or key,
// always the date. One wording for the web app, the proxy's emails and its webhooks, so each
// says exactly what the others say.
import { formatLongDate } from "./long-date.ts";
import { formatPoundsAndPence } from "./money.ts";
import type { Alert } from "./watch.ts";

/** What the words need of an alert: the proxy's stored alerts and the API's both have it. */
export type AlertToWord = Pick<Alert, "kind" | "detail">;

type Detail = Alert["detail"];

const AREA_WORDS: Record<string, string> = {
  insurance: "Insurance",
  mot: "MOT",
  tax: "Road tax",
};

const text = (value: Detail[string] | undefined) =>
  value === null || value === undefined ? "" : String(value);

/** The date in words, or undefined when the detail has none (an email must not throw). */
function dateWords(value: Detail[string] | undefined): string | undefined {
  const date = text(value);
  return /^\d{4}-\d{2}-\d{2}/.test(date) &&
    !Number.isNaN(Date.parse(date.slice(0, 10)))
    ? formatLongDate(date)
    : undefined;
}

function notInsuredWords(detail: Detail): string {
  if (detail.how === "never") return "Not insured: no policy on record";
  const policy = text(detail.policy);
  const endedOn = dateWords(detail.endedOn);
  // The upstream did not say which policy ended ("not told"): no claim that none ever did.
  if (!policy) return "Not insured";
  const how = detail.how === "cancelled" ? "was cancelled, ending" : "lapsed";
  return `Not insured: policy ${policy} ${how}${endedOn ? ` on ${endedOn}` : ""}`;
}

function endingWords(detail: Detail): string {
  const area = AREA_WORDS[text(detail.area)] ?? "Cover";
  const date = dateWords(detail.date);
  const on = date ? ` (${date})` : "";
  const threshold = Number(detail.threshold);
  if (threshold === 0) return `${area} ends today${on}`;
  if (threshold === 1) return `${area} ends tomorrow${on}`;
  return `${area} ends within ${threshold} days${on}`;
}

export function alertWords(alert: AlertToWord): string {
  const { detail } = alert;
  switch (alert.kind) {
    case "not-insured":
      return notInsuredWords(detail);
    case "insured-again":
      return `Insured again: policy ${text(detail.policy)} with ${text(detail.insurer)}`;
    case "ending":
      return endingWords(detail);
    case "mot-expired": {
      const expiry = dateWords(detail.expiry);
      return expiry ? `MOT expired on ${expiry}` : "MOT expired";
    }
    case "untaxed":
      return detail.status === "sorn"
        ? "Declared off the road (SORN)"
        : "Untaxed";
    case "new-fine":
      return `New fine: ${text(detail.count)} outstanding, ${formatPoundsAndPence(Number(detail.totalPence))} in all`;
    case "fines-paid":
      return "Fines paid";
    case "not-found":
      return "No longer found on the register";
  }
}
