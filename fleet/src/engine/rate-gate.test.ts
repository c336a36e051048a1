import { describe, expect, it } from "vitest";
import { RateGate, type RateReading } from "./rate-gate.ts";

const T = 1_000_000;
const reading = (
  remaining: number,
  resetSeconds = 30,
  receivedAt = T,
): RateReading => ({
  limit: 10,
  remaining,
  resetSeconds,
  receivedAt,
});

describe("RateGate", () => {
  it("is open before any reading", () => {
    expect(new RateGate().check(T)).toEqual({ open: true });
  });

  it("spends Remaining, counting what was in flight when the reading arrived", () => {
    const gate = new RateGate();
    gate.sent();
    gate.sent();
    gate.sent();
    // One answer arrives with Remaining 3; two requests are still out and may not be counted yet.
    gate.settled(T, reading(3));
    expect(gate.check(T)).toEqual({ open: true });
    gate.sent();
    expect(gate.check(T)).toEqual({ open: false, until: T + 30_000 });
  });

  it("opens again at the reset, for Limit requests", () => {
    const gate = new RateGate();
    gate.sent();
    gate.settled(T, reading(0, 30));
    expect(gate.check(T + 29_999)).toEqual({ open: false, until: T + 30_000 });
    expect(gate.check(T + 30_000)).toEqual({ open: true });
    for (let sent = 0; sent < 10; sent += 1) gate.sent();
    // Ten out in the new window and none answered: only an answer can open it.
    expect(gate.check(T + 30_000)).toEqual({ open: false });
    gate.settled(T + 30_500);
    expect(gate.check(T + 30_500)).toEqual({ open: true });
  });

  it("closes for Retry-After on a 429, however much the last reading left", () => {
    const gate = new RateGate();
    gate.sent();
    gate.settled(T, reading(9));
    gate.sent();
    gate.settled(T, reading(0), 23_000);
    expect(gate.check(T + 1000)).toEqual({ open: false, until: T + 23_000 });
    expect(gate.check(T + 23_000)).toEqual({ open: true });
  });

  it("lifts a 429's wait when a later answer shows Remaining above 0", () => {
    const gate = new RateGate();
    gate.sent();
    gate.sent();
    gate.settled(T, reading(0), 60_000);
    gate.settled(T + 10, reading(5, 30, T + 10));
    expect(gate.check(T + 20)).toEqual({ open: true });
  });

  it("keeps a 429's wait when the later answer has nothing left either", () => {
    const gate = new RateGate();
    gate.sent();
    gate.sent();
    gate.settled(T, reading(0), 60_000);
    gate.settled(T + 10, reading(0, 30, T + 10));
    expect(gate.check(T + 20)).toEqual({ open: false, until: T + 60_000 });
  });
});
