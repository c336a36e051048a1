// What each upstream fault becomes on its way to the browser (decision 017), and the words the
// web app shows for it (web/src/components/describe-error.ts); plates with a known fake answer.
import {
  fakeOutcome,
  FAULTS,
  type Fault,
  type FakeOutcome,
} from "@vics/proxy/testing/fault-upstream";
import { isValidRegistration } from "@vics/shared";

export { FAULTS, type Fault };

/** The proxy's problem for a fault, as docs/decisions/017-proxy-upstream-faults.md tables it. */
export interface ProxyAnswer {
  status: 502 | 504;
  code: "BAD_GATEWAY" | "GATEWAY_TIMEOUT";
  /** The problem's detail, which says which kind of fault it was. */
  detail: RegExp;
}

const UNREACHABLE: ProxyAnswer = {
  status: 502,
  code: "BAD_GATEWAY",
  detail: /could not be reached/,
};
const UNAVAILABLE: ProxyAnswer = {
  status: 502,
  code: "BAD_GATEWAY",
  detail: /unavailable at the moment/,
};
const NOT_UNDERSTOOD: ProxyAnswer = {
  status: 502,
  code: "BAD_GATEWAY",
  detail: /does not understand/,
};
const TIMEOUT: ProxyAnswer = {
  status: 504,
  code: "GATEWAY_TIMEOUT",
  detail: /did not answer in time/,
};

export const PROXY_ANSWERS: Record<Fault, ProxyAnswer> = {
  refuse: UNREACHABLE,
  "hang-up": UNREACHABLE,
  reset: UNREACHABLE,
  slow: TIMEOUT,
  stall: TIMEOUT,
  "status-500": NOT_UNDERSTOOD,
  "status-502": UNAVAILABLE,
  "status-503": UNAVAILABLE,
  "not-json": NOT_UNDERSTOOD,
  "breaks-contract": NOT_UNDERSTOOD,
};

/** What a single check's error panel says: a heading and a message a person can act on. */
export interface ShownError {
  title: string;
  message: string;
}

const NOT_RESPONDING = "The vehicle service is not responding";

export const SHOWN_ERRORS: Record<ProxyAnswer["code"], ShownError> = {
  BAD_GATEWAY: {
    title: NOT_RESPONDING,
    message:
      "VICS could not get an answer from the vehicle service. Try again in a moment. If it keeps happening, contact your administrator and give them the reference below.",
  },
  GATEWAY_TIMEOUT: {
    title: NOT_RESPONDING,
    message:
      "The vehicle service took too long to answer. Try again in a moment.",
  },
};

/**
 * `count` valid registrations whose fake answer is `outcome`, all starting with `prefix` (two
 * letters), so that each test asks about plates of its own.
 */
export function platesWith(
  outcome: FakeOutcome,
  count: number,
  prefix: string,
): string[] {
  const found: string[] = [];
  const letters = "ABCDEFGHJKLMNPRSTUVWXYZ";
  for (let year = 10; year < 26 && found.length < count; year += 1)
    for (const letter of letters) {
      const plate = `${prefix}${year}${letter}XY`;
      if (isValidRegistration(plate) && fakeOutcome(plate) === outcome)
        found.push(plate);
      if (found.length === count) break;
    }
  if (found.length < count)
    throw new Error(`Only ${found.length} ${outcome} plates for ${prefix}`);
  return found;
}
