// Makes the signing secret a team's webhook endpoint is given: the Standard Webhooks form
// (`whsec_` and the base64 of random bytes), so any Standard Webhooks library on the
// receiving side takes it as it is. The spec asks for at least 24 random bytes; 32 is
// SHA-256's own key length.
import { randomBytes } from "node:crypto";

/** How many random bytes a secret holds. */
export const WEBHOOK_SECRET_BYTES = 32;

/** A new random signing secret, `whsec_<base64>`. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(WEBHOOK_SECRET_BYTES).toString("base64")}`;
}
