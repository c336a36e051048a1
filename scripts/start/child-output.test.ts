import { describe, expect, it } from "vitest";
import {
  belongsOnTerminal,
  parseLogLine,
  plainLine,
  readableEvent,
} from "./child-output.ts";

const WARNING = {
  level: "warn",
  time: "2026-03-10T12:00:00.000Z",
  service: "proxy",
  upstream: "http://127.0.0.1:3001",
  status: 502,
  msg: "the vehicle service is not answering",
};

describe("parseLogLine", () => {
  it("reads a JSON log line", () => {
    expect(parseLogLine(JSON.stringify(WARNING))).toEqual(WARNING);
  });

  it.each([
    "The proxy cannot start:",
    "  - PORT: must be a number",
    "{ not json",
    '{"no":"level or msg"}',
    "",
  ])("leaves %j to the terminal as it is", (line) => {
    expect(parseLogLine(line)).toBeUndefined();
  });
});

describe("belongsOnTerminal", () => {
  it.each([
    ["debug", false],
    ["info", false],
    ["warn", true],
    ["error", true],
    ["fatal", true],
  ])("%s: %s", (level, shown) => {
    expect(belongsOnTerminal({ ...WARNING, level })).toBe(shown);
  });
});

describe("plainLine", () => {
  it("is the line after the child's label, its own indent kept", () => {
    expect(plainLine("proxy", "  Sign in to VICS as the first admin")).toBe(
      "[proxy]   Sign in to VICS as the first admin",
    );
  });

  it.each(["", "   ", "\t"])(
    "leaves the blank line %j blank, without a label",
    (line) => {
      expect(plainLine("proxy", line)).toBe("");
    },
  );
});

describe("readableEvent", () => {
  it("is the label, level, message and fields, without time and service", () => {
    expect(readableEvent("proxy", WARNING)).toBe(
      "[proxy] warn: the vehicle service is not answering (upstream=http://127.0.0.1:3001, status=502)",
    );
  });

  it("has no brackets when there are no fields", () => {
    expect(
      readableEvent("service", { level: "error", msg: "unhandled error" }),
    ).toBe("[service] error: unhandled error");
  });
});
