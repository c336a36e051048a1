import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@vics/shared";
import { ACTION_WORDS, auditTime, outcomeWords } from "./audit-words.ts";

describe("audit words", () => {
  it("words every action the contract has", () => {
    for (const action of AUDIT_ACTIONS)
      expect(ACTION_WORDS[action]).toMatch(/^[A-Z][^.]+$/);
  });

  it.each([
    ["200", "Answered (200)"],
    ["404", "Not found (404)"],
    ["429", "Refused: too many requests (429)"],
    ["418", "Refused (418)"],
    ["503", "Failed (503)"],
    ["ok", "Done"],
    ["wrong password", "Wrong password"],
  ])("outcome %j reads %j", (outcome, words) => {
    expect(outcomeWords(outcome)).toBe(words);
  });

  it("gives times in UK time, summer or winter, whatever the computer's zone", () => {
    expect(auditTime("2026-07-14T23:30:00.000Z")).toBe("15 Jul 2026, 00:30:00");
    expect(auditTime("2026-12-14T23:30:00.000Z")).toBe("14 Dec 2026, 23:30:00");
  });
});
