import { afterEach, describe, expect, it, vi } from "vitest";
import { createConsoleLogger, formatLogLine } from "./logger.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("formatLogLine", () => {
  it("writes level, message and key=value pairs, quoting values with spaces", () => {
    const line = formatLogLine("INFO", "request", {
      method: "GET",
      path: "/api/v1/compliance/AB12CDE",
      status: 200,
      note: "two words",
      missing: undefined,
    });
    expect(line).toMatch(
      /^\S+ INFO request method=GET path=\/api\/v1\/compliance\/AB12CDE status=200 note="two words"$/,
    );
  });
});

describe("createConsoleLogger", () => {
  it("masks the secrets it was given, on every level", () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    const logger = createConsoleLogger(["s3cret-key"]);
    logger.info("info s3cret-key");
    logger.warn("warn", { reason: "header s3cret-key" });
    logger.error("error s3cret-key");
    const printed = [...out.mock.calls, ...err.mock.calls].flat().join("\n");
    expect(printed).not.toContain("s3cret-key");
    expect(printed.match(/\[redacted\]/g)).toHaveLength(3);
  });
});
