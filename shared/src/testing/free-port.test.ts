import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralLow, freePort, listening } from "./free-port.ts";

describe("freePort", () => {
  it("hands out loopback ports below the range client connections take their own end from", async () => {
    const low = ephemeralLow();
    const ports = await Promise.all(
      Array.from({ length: 20 }, () => freePort()),
    );
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
    }
    // A port handed out can be listened on.
    const server = createServer();
    await new Promise<void>((resolve) =>
      server.listen(ports[0], "127.0.0.1", resolve),
    );
    expect(await listening(ports[0]!)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the range's low end from the kernel, and falls back to Linux's default", () => {
    expect(ephemeralLow(() => "49152\t65535\n")).toBe(49_152);
    expect(ephemeralLow(() => "nonsense")).toBe(32_768);
    expect(ephemeralLow(() => "1024 65535")).toBe(32_768);
    expect(
      ephemeralLow(() => {
        throw new Error("no /proc here");
      }),
    ).toBe(32_768);
  });

  it("passes over a port something listens on", async () => {
    const low = ephemeralLow();
    const server = createServer();
    const held = await freePort();
    await new Promise<void>((resolve) =>
      server.listen(held, "127.0.0.1", resolve),
    );
    // The first pick lands on the held port, the next elsewhere.
    const span = low - 10_000;
    const other = held === 10_000 + span / 2 ? 0.25 : 0.5;
    const picks = [(held - 10_000 + 0.5) / span, other];
    const port = await freePort(() => picks.shift() ?? Math.random());
    expect(picks).toEqual([]);
    expect(port).not.toBe(held);
    expect(port).toBe(10_000 + Math.floor(other * span));
    await new Promise((resolve) => server.close(resolve));
  });
});
