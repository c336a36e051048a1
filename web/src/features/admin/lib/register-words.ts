// The sources page's words: each live register's name, how to turn it on, its last error's
// kind as docs/sources.md names it, today's requests and its client secret's warning.
import {
  formatUkClock,
  LIVE_SOURCE_LABELS,
  type LiveSourceName,
} from "@vics/shared";
import type { RegisterStatus } from "@vics/shared/registers-admin";
import { formatDate } from "../../../lib/dates.ts";
import { count } from "../../../lib/count.ts";

interface RegisterWords {
  /** Its long name, as the provider names the service. */
  name: string;
  /** The variables that turn it on (docs/sources.md). */
  turnOn: string;
}

export const REGISTER_WORDS: Record<LiveSourceName, RegisterWords> = {
  "dvla-ves": {
    name: "DVLA Vehicle Enquiry Service",
    turnOn: "set DVLA_VES_API_KEY_FILE in the service's environment",
  },
  "dvsa-mot-history": {
    name: "DVSA MOT History API",
    turnOn:
      "set DVSA_MOT_API_KEY_FILE, DVSA_MOT_CLIENT_ID, DVSA_MOT_CLIENT_SECRET_FILE and DVSA_MOT_TOKEN_URL in the service's environment",
  },
};

/** The document that says how to run the registers: a file admins have, not a web page. */
export const SOURCES_DOC = "docs/sources.md in VICS's repository";

/** "set … in the service's environment; see docs/sources.md in VICS's repository". */
export const turnOnWords = (source: LiveSourceName) =>
  `${REGISTER_WORDS[source].turnOn}; see ${SOURCES_DOC}`;

type ErrorKind = NonNullable<RegisterStatus["lastError"]>["kind"];

/** What the admin sees, as docs/sources.md's "When a source fails" names each kind. */
export const ERROR_KIND_WORDS: Record<ErrorKind, string> = {
  credentials: "Credentials refused",
  quota: "Quota spent",
  maintenance: "Provider in maintenance",
  unavailable: "Provider down",
  malformed: "Malformed answer",
  refused: "Registration refused",
};

/** "1,234 of 500,000". */
export const requestsWords = ({
  used,
  quota,
}: {
  used: number;
  quota: number;
}) => `${count(used)} of ${count(quota)}`;

/**
 * When the requests count starts again: the pacer's quota is per UTC day (decision 060), so
 * from 00:00 to 01:00 UK time in summer the count is still the day before's. "Resets at 00:00
 * UTC (01:00 UK time)".
 */
export function resetWords(now: Date): string {
  const nextUtcMidnight = new Date(now);
  nextUtcMidnight.setUTCHours(24, 0, 0, 0);
  return `Resets at 00:00 UTC (${formatUkClock(nextUtcMidnight)} UK time)`;
}

export const staleWords = (stale: number) =>
  stale === 0 ? "None" : count(stale);

/**
 * "The DVSA client secret expires on 12 December 2026: make a new one (docs/sources.md in
 * VICS's repository says how)", from 30 days before (the service says when); undefined until then.
 */
export function secretWarning(
  register: RegisterStatus,
  today: string,
): string | undefined {
  const expires = register.secretExpires;
  if (!register.secretExpiresSoon || expires === undefined) return undefined;
  // Who issues its credentials: the agency, by the short name answers use.
  const provider = LIVE_SOURCE_LABELS[register.source];
  const when = `${expires < today ? "expired" : "expires"} on ${formatDate(expires)}`;
  return `The ${provider} client secret ${when}: make a new one (${SOURCES_DOC} says how).`;
}
