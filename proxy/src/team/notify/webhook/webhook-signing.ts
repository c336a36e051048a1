// Signs a webhook delivery the Standard Webhooks way (https://www.standardwebhooks.com), so a
// receiver can check it came from us, unchanged, and recently: an HMAC-SHA256 of
// `{id}.{timestamp}.{body}` with the endpoint's secret, made by the standardwebhooks library.
// While a secret is being rotated the endpoint has two, the new and the old: the delivery
// carries a signature by each, space-separated, and a receiver holding either one accepts it.
import { Webhook } from "standardwebhooks";

/** The three headers a Standard Webhooks receiver reads. */
interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * An id is signed as `{id}.` before the timestamp, so a full stop in it could make two
 * different messages sign alike (the spec forbids it); it goes in a header, so it is
 * printable ASCII with no space.
 */
const ID = /^[!-~]{1,256}$/;

/**
 * The headers for one delivery of `body`. `id` is the message's id, the same on every retry
 * (the receiver's idempotency key); `timestamp` is this attempt's time. `secrets` are the
 * endpoint's current secrets, `whsec_...`, newest first. Throws on an id, a time or a secret
 * it cannot sign with.
 */
export function signedHeaders(options: {
  id: string;
  timestamp: Date;
  body: string;
  secrets: string[];
}): SignedHeaders {
  const { id, timestamp, body, secrets } = options;
  if (!ID.test(id) || id.includes(".")) {
    throw new Error(
      "A webhook id must be 1 to 256 printable characters with no space or full stop.",
    );
  }
  if (Number.isNaN(timestamp.getTime())) {
    throw new Error("A webhook timestamp must be a valid date.");
  }
  if (secrets.length === 0) {
    throw new Error("A webhook needs at least one secret to be signed with.");
  }
  const signatures = secrets.map((secret) =>
    signWith(secret, id, timestamp, body),
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

function signWith(
  secret: string,
  id: string,
  timestamp: Date,
  body: string,
): string {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    // The library's own error would be about base64; the secret itself is never repeated.
    throw new Error("A webhook secret is not in the form whsec_<base64>.");
  }
  return webhook.sign(id, timestamp, body);
}
