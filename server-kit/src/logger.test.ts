import { describe, expect, it } from "vitest";
import { createLogger, maskSecrets } from "./logger.ts";

function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({
    service: "proxy",
    secrets,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines };
}

describe("createLogger", () => {
  it("writes one JSON line per event: time, level, service, msg and the fields", () => {
    const { logger, lines } = capture();
    logger.warn("upstream timed out", { requestId: "abc", timeoutMs: 10 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("\n")).toBe(true);
    const event = JSON.parse(lines[0] ?? "");
    expect(event).toEqual({
      time: expect.any(String),
      level: "warn",
      service: "proxy",
      msg: "upstream timed out",
      requestId: "abc",
      timeoutMs: 10,
    });
    expect(new Date(event.time).toISOString()).toBe(event.time);
  });

  it("writes only events at or above its level", () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: "service",
      level: "warn",
      destination: { write: (line: string) => void lines.push(line) },
    });
    logger.info("request");
    logger.warn("upstream unreachable");
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      "upstream unreachable",
    ]);
  });

  it("masks the secrets it was given, in messages and fields, on every level", () => {
    const { logger, lines } = capture(["s3cret-key-0123456789"]);
    logger.info("info s3cret-key-0123456789");
    logger.warn("warn", { reason: "header s3cret-key-0123456789" });
    logger.error("error", { error: "x-api-key: s3cret-key-0123456789" });
    const printed = lines.join("");
    expect(printed).not.toContain("s3cret-key");
    expect(printed.match(/\[redacted\]/g)).toHaveLength(3);
  });
});

describe("maskSecrets", () => {
  it("masks a secret also in its JSON-escaped form", () => {
    const mask = maskSecrets(['quote"and\\slash']);
    expect(mask(JSON.stringify({ msg: 'has quote"and\\slash' }))).toBe(
      '{"msg":"has [redacted]"}',
    );
  });

  it("ignores empty secrets", () => {
    expect(maskSecrets([""])("plain text")).toBe("plain text");
  });

  it("masks a secret added after the mask was made (a key reloaded on SIGHUP)", () => {
    const secrets = ["old-key"];
    const mask = maskSecrets(secrets);
    expect(mask("old-key new-key")).toBe("[redacted] new-key");
    secrets.push("new-key");
    expect(mask("old-key new-key")).toBe("[redacted] [redacted]");
  });
});
