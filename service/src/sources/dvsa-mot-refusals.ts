// The MOT History API's refusals in an operator's words, from the status and DVSA's documented
// error code (MOTH-..., documentation.history.mot.api.gov.uk "Error codes"): what went wrong and
// what to do. No credential ever goes into them.
import { SourceError } from "./source.ts";

/** What the adapter read of a refusal. */
export interface Refusal {
  status: number;
  /** The Retry-After header in milliseconds, where DVSA sent one it can read. */
  retryAfterMs: number | undefined;
  errorCode: string | undefined;
}

export function malformed(why: string): SourceError {
  return new SourceError(
    "dvsa-mot-history",
    "malformed",
    `DVSA's answer for a vehicle is not the shape its documentation gives (${why}). If this persists, DVSA may have changed its API: tell the VICS maintainers.`,
    { status: 200 },
  );
}

export function failure(reply: Refusal): SourceError {
  const { status, errorCode: code, retryAfterMs } = reply;
  const options = {
    status,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  };
  const error = (kind: SourceError["kind"], words: string) =>
    new SourceError("dvsa-mot-history", kind, words, options);
  if (status === 401 || status === 403)
    return error("credentials", credentialWords(status, code));
  if (status === 429)
    return error(
      "quota",
      code === "MOTH-RL-01"
        ? "DVSA's daily allowance of MOT history requests is spent; look-ups resume tomorrow. For more than about 150,000 vehicles a day DVSA recommends its bulk files."
        : "DVSA is refusing MOT history requests sent too quickly; look-ups resume after the pause it asked for.",
    );
  if (status === 400)
    return error(
      "refused",
      `DVSA would not look up a registration: it says it is not valid (${code ?? "status 400"}).`,
    );
  if (status === 404)
    return error(
      "unavailable",
      "DVSA says the address VICS calls does not exist (MOTH-NF-02): check the MOT history base URL.",
    );
  if (status === 503)
    return error(
      "maintenance",
      "DVSA's MOT history service is down for maintenance; look-ups resume when it is back.",
    );
  return error(
    "unavailable",
    `DVSA's MOT history service failed (status ${status}${code ? `, ${code}` : ""}); look-ups resume when it recovers.`,
  );
}

function credentialWords(status: number, code: string | undefined): string {
  if (code === "MOTH-FB-03" || (status === 403 && code === undefined))
    return "DVSA did not accept the MOT history API key: it may have been revoked (DVSA revokes a key unused for 90 days) or mistyped. Ask DVSA for a new key and put it in the API key file.";
  if (code === "MOTH-FB-01")
    return "DVSA says this account may not use the MOT history look-up (MOTH-FB-01): ask DVSA to grant it.";
  return `DVSA refused the access token even after a new one was issued (${code}): check that the client id, client secret and API key are all from the same DVSA registration.`;
}
