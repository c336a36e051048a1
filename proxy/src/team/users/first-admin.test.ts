import { describe, expect, it } from "vitest";
import { firstAdminBanner } from "./first-admin.ts";

const LINK = {
  url: "https://vics.example.org/sign-in/link#token=abc",
  email: "admin@localhost",
};

describe("the first admin's banner", () => {
  it("names the link's one use and its day, then the password the account page sets", () => {
    expect(firstAdminBanner(LINK, { localSignIn: true })).toBe(
      [
        "",
        "  Sign in to VICS as the first admin (admin@localhost) with this link; it works once, within 24 hours:",
        "  https://vics.example.org/sign-in/link#token=abc",
        "  Then set a password on your account page (your name, at the top of every page), and invite your team from Users.",
        "",
        "",
      ].join("\n"),
    );
  });

  it("offers the organisation sign-in instead when passwords are off (LOCAL_SIGN_IN=false)", () => {
    const banner = firstAdminBanner(LINK, { localSignIn: false });
    expect(banner).toContain(
      "Then link your organisation sign-in on your account page",
    );
    expect(banner).not.toContain("password");
  });
});
