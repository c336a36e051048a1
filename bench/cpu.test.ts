import { describe, expect, it } from "vitest";
import { statCpuSeconds } from "./cpu.ts";

describe("statCpuSeconds", () => {
  it("adds utime and stime (fields 14 and 15), in hundredths of a second", () => {
    const stat =
      "4242 (node) S 1 4242 4242 0 -1 4194560 2000 0 0 0 1234 566 0 0 20 0 11 0 100 0 0";
    expect(statCpuSeconds(stat)).toBe(18);
  });

  it("reads a command name with spaces and parentheses", () => {
    const stat =
      "7 (my (odd) name) R 1 7 7 0 -1 0 0 0 0 0 250 50 0 0 20 0 1 0 100 0 0";
    expect(statCpuSeconds(stat)).toBe(3);
  });
});
