import { describe, expect, it } from "vitest";
import { checkFigureKeys, inChecksSection } from "./checks.ts";

describe("the checks section's figures", () => {
  const keys = checkFigureKeys();

  it("holds the issue's two ratios with their rounds' spread", () => {
    for (const ratio of ["proxy_bff_cpu_ratio", "signed_in_unsigned_cpu_ratio"])
      expect(keys).toEqual(
        expect.arrayContaining([
          ratio,
          `${ratio}_lowest_round`,
          `${ratio}_highest_round`,
        ]),
      );
  });

  it("holds the three forwarders' CPU and the in-process split of sign-in", () => {
    expect(keys).toEqual(
      expect.arrayContaining([
        "proxy_cpu_us_per_req",
        "proxy_unsigned_cpu_us_per_req",
        "bff_sessions_cpu_us_per_req",
        "session_read_cpu_us",
        "audit_append_cpu_us",
      ]),
    );
  });

  it("leaves out the servers and ratios it does not measure", () => {
    expect(keys).not.toContain("service_cpu_us_per_req");
    expect(keys).not.toContain("proxy_nginx_cpu_ratio");
    expect(keys).not.toContain("bff_sessions_bff_cpu_ratio");
  });

  it("prints the ratio rows of its own figures and no others", () => {
    expect(
      inChecksSection("proxy_cpu_us_per_req / bff_sessions_cpu_us_per_req"),
    ).toBe(true);
    expect(inChecksSection("proxy_cpu_us_per_req / nginx_cpu_us_per_req")).toBe(
      false,
    );
    expect(inChecksSection("seed1m_s")).toBe(false);
  });
});
