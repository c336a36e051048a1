// The alert deliveries in words for an admin: each status, channel and timing, and a
// delivery's attempts, never a raw key.
import type { Delivery, DeliveryStatus } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";

export const STATUS_WORDS: Record<DeliveryStatus, string> = {
  pending: "Waiting",
  sent: "Sent",
  failed: "Failed",
  dropped: "Dropped",
};

/** The log's filter: what each status means, for the admin choosing one. */
export const STATUS_FILTER_WORDS: Record<DeliveryStatus, string> = {
  pending: "Waiting (for the digest, a retry or their turn)",
  sent: "Sent",
  failed: "Failed (out of retries)",
  dropped: "Dropped (no longer wanted)",
};

/** The log filtered to a status with nothing in it. */
export const NONE_WORDS: Record<DeliveryStatus, string> = {
  pending: "No deliveries are waiting.",
  sent: "No deliveries have been sent.",
  failed: "No deliveries have failed.",
  dropped: "No deliveries were dropped.",
};

export const CHANNEL_WORDS: Record<Delivery["channel"], string> = {
  email: "Email",
  webhook: "Webhook",
};

export const TIMING_WORDS: Record<Delivery["timing"], string> = {
  instant: "at once",
  digest: "in the daily digest",
};

/** Only failed and dropped deliveries can be sent again. */
export const canReplay = (delivery: Delivery) =>
  delivery.status === "failed" || delivery.status === "dropped";

/** "None yet", or "3 attempts" with the last's answer: "Last on 27 November 2026 at 06:02: HTTP 500". */
export function attemptWords(delivery: Delivery): {
  count: string;
  last?: string;
} {
  const { attempts } = delivery;
  const last = attempts.at(-1);
  if (!last) return { count: "None yet" };
  return {
    count: attempts.length === 1 ? "1 attempt" : `${attempts.length} attempts`,
    last: `Last on ${formatDateTime(last.at)}: ${last.detail}`,
  };
}
