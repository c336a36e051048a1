// The sources page's words: each live register's name, how to turn it on, its last error's
// kind as docs/sources.md names it, today's requests and its client secret's warning.
import type { LiveSourceName } from "@vics/shared";
import type { RegisterStatus } from "@vics/shared/registers-admin";
import { formatDate } from "../../../lib/dates.ts";

interface RegisterWords {
  /** As the provider names it. */
  name: string;
  /** Who issues its credentials. */
  provider: string;
  /** The variables that turn it on (docs/sources.md). */
  turnOn: string;
}

export const REGISTER_WORDS: Record<LiveSourceName, RegisterWords> = {
  "dvla-ves": {
    name: "DVLA Vehicle Enquiry Service",
    provider: "DVLA",
    turnOn: "set DVLA_VES_API_KEY_FILE in the service's environment",
  },
  "dvsa-mot-history": {
    name: "DVSA MOT History",
    provider: "DVSA",
    turnOn:
      "set DVSA_MOT_API_KEY_FILE, DVSA_MOT_CLIENT_ID, DVSA_MOT_CLIENT_SECRET_FILE and DVSA_MOT_TOKEN_URL in the service's environment",
  },
};

/** "set … in the service's environment; see docs/sources.md", after an off register's "Off: ". */
export const turnOnWords = (source: LiveSourceName) =>
  `${REGISTER_WORDS[source].turnOn}; see docs/sources.md`;

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

const count = (value: number) => value.toLocaleString("en-GB");

/** "1,234 of 500,000". */
export const requestsWords = ({
  used,
  quota,
}: {
  used: number;
  quota: number;
}) => `${count(used)} of ${count(quota)}`;

export const staleWords = (stale: number) =>
  stale === 0 ? "None" : count(stale);

/**
 * "The DVSA client secret expires on 12 December 2026: make a new one (docs/sources.md says
 * how)", from 30 days before (the service says when); undefined until then.
 */
export function secretWarning(
  register: RegisterStatus,
  today: string,
): string | undefined {
  const expires = register.secretExpires;
  if (!register.secretExpiresSoon || expires === undefined) return undefined;
  const provider = REGISTER_WORDS[register.source].provider;
  const when = `${expires < today ? "expired" : "expires"} on ${formatDate(expires)}`;
  return `The ${provider} client secret ${when}: make a new one (docs/sources.md says how).`;
}
