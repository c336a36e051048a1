import { describe, expect, it } from "vitest";
import { oidcRefusalWords } from "./oidc-refusal.ts";

describe("oidcRefusalWords", () => {
  it("says nothing when the provider sent nobody back", () => {
    expect(oidcRefusalWords(null)).toBeUndefined();
  });

  it.each([
    ["no-account", "Ask an admin of VICS to invite you."],
    ["disabled", "Your account has been disabled."],
    ["email-not-verified", "did not confirm your email address"],
    ["linked-elsewhere", "linked to a different sign-in"],
    ["failed", "Try again."],
    ["link-needed", "link your organisation sign-in on your account page"],
    ["unavailable", "VICS cannot reach your organisation’s sign-in service"],
  ])("%s: says why and what to do", (reason, words) => {
    expect(oidcRefusalWords(reason)).toContain(words);
  });

  it("answers a reason it does not know, or one from the prototype, in general words", () => {
    for (const reason of ["something-new", "toString", "__proto__"])
      expect(oidcRefusalWords(reason)).toBe(
        "VICS could not sign you in through your organisation. Try again.",
      );
  });
});
