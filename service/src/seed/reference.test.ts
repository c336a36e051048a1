import { describe, expect, it } from "vitest";
import { REFERENCE_REGISTRATIONS, referenceVehicles } from "./reference.ts";

describe("referenceVehicles", () => {
  it("builds one vehicle for each registration of the list, in its order", () => {
    expect(
      referenceVehicles("2026-03-10").map((vehicle) => vehicle.registration),
    ).toEqual([...REFERENCE_REGISTRATIONS]);
  });
});
