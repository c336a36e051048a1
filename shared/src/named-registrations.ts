/**
 * The registrations docs/contract.md names: the one list of each, for the service that seeds and
 * answers them and for the tests and tools that need them by name (a test that states the
 * contract's table of outcomes writes it out instead).
 */

/** In every seeded database, each with the outcome docs/contract.md states for it. */
export const REFERENCE_REGISTRATIONS = [
  "AB12CDE",
  "UN51NSD",
  "LP08SED",
  "MT15EXP",
  "NW25CAR",
  "TX19NON",
  "SR19ORN",
  "FN19OUT",
  "BD19ALL",
  "EX26SON",
] as const;

/** Answered specially, and only, when the service runs in sandbox mode. */
export const SANDBOX_REGISTRATIONS = {
  ER19NFD: "not-found",
  ER19ERR: "error",
  ER19THR: "throttled",
  ER19SLO: "slow",
} as const;
