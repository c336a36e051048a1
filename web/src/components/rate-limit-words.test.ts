import { describe, expect, it } from "vitest";
import {
  meterAnnouncement,
  meterDetail,
  meterHeadline,
  meterState,
} from "./rate-limit-words.ts";

const RECEIVED = Date.parse("2026-05-01T12:00:00Z");
const reading = (remaining: number, limit: number, resetSeconds = 42) => ({
  remaining,
  limit,
  resetSeconds,
  receivedAt: RECEIVED,
});

describe("the rate-limit meter's words", () => {
  it.each([
    [
      undefined,
      0,
      "Your checks left this minute: not read yet",
      "Shown after your first check",
    ],
    // When the count was read (UK time: 12:00 UTC is 13:00 BST), as it may be from before a reload.
    [
      reading(118, 120),
      0,
      "Your checks left this minute: 118 of 120",
      "As of 13:00; renews in 42 seconds",
    ],
    [
      reading(99_991, 100_000),
      41_000,
      "Your checks left this minute: 99,991 of 100,000",
      "As of 13:00; renews in 1 second",
    ],
    // A tenth of the limit is the edge of "Only".
    [
      reading(13, 120),
      0,
      "Your checks left this minute: 13 of 120",
      "As of 13:00; renews in 42 seconds",
    ],
    [
      reading(12, 120),
      0,
      "Only 12 of your 120 checks left this minute",
      "Back to 120 in 42 seconds",
    ],
    [
      reading(8, 120),
      0,
      "Only 8 of your 120 checks left this minute",
      "Back to 120 in 42 seconds",
    ],
    [
      reading(1, 10),
      41_000,
      "Only 1 of your 10 checks left this minute",
      "Back to 10 in 1 second",
    ],
    [
      reading(0, 10),
      0,
      "You have no checks left this minute",
      "You can check again in 42 seconds",
    ],
    [
      reading(0, 10),
      30_500,
      "You have no checks left this minute",
      "You can check again in 12 seconds",
    ],
    // The window has passed since the reading: a new minute (other tabs may have used some).
    [
      reading(0, 10),
      42_000,
      "Up to 10 of your checks left this minute",
      "Read at 13:00; renewed since",
    ],
    [
      reading(0, 1, 5),
      3_600_000,
      "Up to 1 of your checks left this minute",
      "Read at 13:00; renewed since",
    ],
  ])("%o after %i ms: %s / %s", (value, elapsedMs, headline, detail) => {
    const state = meterState(value, RECEIVED + elapsedMs);
    expect(meterHeadline(state)).toBe(headline);
    expect(meterDetail(state)).toBe(detail);
  });

  it("speaks only when checks run out or come back", () => {
    const open = meterState(reading(5, 10), RECEIVED);
    const usedUp = meterState(reading(0, 10, 30), RECEIVED);
    const renewed = meterState(reading(0, 10, 30), RECEIVED + 31_000);
    expect(meterAnnouncement(open, false)).toBeUndefined();
    expect(meterAnnouncement(usedUp, false)).toBe(
      "You have no checks left this minute. You can check again in 30 seconds.",
    );
    expect(meterAnnouncement(usedUp, true)).toBeUndefined();
    expect(meterAnnouncement(renewed, true)).toBe(
      "Your checks are available again.",
    );
    expect(meterAnnouncement(open, true)).toBe(
      "Your checks are available again.",
    );
  });
});
