import { describe, expect, it } from "vitest";
import { memoryLogger } from "./memory-logger.ts";

describe("the memory logger", () => {
  it("shows the same lines as text, events and entries", () => {
    const log = memoryLogger("info", "proxy");
    log.info("started", { port: 3000 });
    log.debug("below the level");
    log.warn("slow", { ms: 12 });
    expect(log.lines).toHaveLength(2);
    expect(log.text()).toBe(log.lines.join(""));
    expect(log.events).toMatchObject([
      { level: "info", msg: "started", service: "proxy", port: 3000 },
      { level: "warn", msg: "slow", ms: 12 },
    ]);
    expect(log.entries).toEqual([
      { level: "info", message: "started", fields: { port: 3000 } },
      { level: "warn", message: "slow", fields: { ms: 12 } },
    ]);
  });

  it("forgets every view of the lines at once, and keeps what comes after", () => {
    const log = memoryLogger();
    log.info("before");
    log.clear();
    expect([log.lines, log.events, log.entries, log.text()]).toEqual([
      [],
      [],
      [],
      "",
    ]);
    log.info("after");
    expect(log.entries).toEqual([
      { level: "info", message: "after", fields: {} },
    ]);
    expect(log.text()).toContain('"after"');
  });
});
