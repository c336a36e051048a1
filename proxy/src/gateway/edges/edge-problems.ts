import { CLIENT_HEADER } from "@vics/shared";
import {
  invalidRegistration,
  ProblemError,
} from "@vics/server-kit/problem-error";

/**
 * The problems the proxy's edges answer (docs/decisions/018-proxy-edges.md): a request that
 * never reaches the service, so it costs the key nothing.
 */
export const EDGE_PROBLEMS = {
  /** In the service's own words (the shared parser's message), as the service would answer. */
  invalidRegistration,
  /** A `date` or `asKnownAt` that is not one, in the service's words (@vics/shared). */
  malformedPointInTime: (detail: string) =>
    new ProblemError(400, "MALFORMED_REQUEST", `${detail}.`),
  clientHeaderMissing: () =>
    new ProblemError(
      403,
      "FORBIDDEN",
      `This API answers the VICS web app, which sends the ${CLIENT_HEADER} header with every request. A program of your own may send it too, with any value (${CLIENT_HEADER}: my-script); a page on another site cannot.`,
    ),
  crossSite: () =>
    new ProblemError(
      403,
      "FORBIDDEN",
      "This API answers requests from the VICS web app's own pages only, not from another site. Open VICS itself and check there.",
    ),
  /** `address`: where VICS is, in words, e.g. "https://vics.example.org". */
  misdirected: (address: string) =>
    new ProblemError(
      421,
      "MISDIRECTED_REQUEST",
      `This server does not answer for that address. Open VICS at ${address}.`,
    ),
  bodyNotAccepted: () =>
    new ProblemError(
      413,
      "PAYLOAD_TOO_LARGE",
      "This address takes no request body. Send the request again without one.",
    ),
};
