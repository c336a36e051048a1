import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRange, freePort, listening, portSpan } from "./free-port.ts";

const listen = async (port: number) => {
  const server = createServer();
  await new Promise<void>((resolve) =>
    server.listen(port, "127.0.0.1", resolve),
  );
  return server;
};

describe("freePort", () => {
  it("hands out loopback ports outside the range client connections take their own end from, each once", async () => {
    const range = ephemeralRange();
    const ports = [];
    for (let at = 0; at < 20; at++) ports.push(await freePort());
    for (const port of ports)
      expect(port < range.low || port > range.high).toBe(true);
    expect(new Set(ports).size).toBe(ports.length);
    // A port handed out can be listened on.
    const server = await listen(ports[0]!);
    expect(await listening(ports[0]!)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
  });

  it("passes over a port something listens on, and one it handed out before", async () => {
    const range = { low: 32_768, high: 60_999 };
    const span = range.low - 10_000;
    const at = (port: number) => (port - 10_000 + 0.5) / span;
    const handed = new Set<number>();
    const held = await freePort(Math.random, range, handed);
    const server = await listen(held);
    const given = await freePort(Math.random, range, handed);
    const fresh = [held, given].includes(10_000 + span / 2)
      ? 10_000 + span / 4
      : 10_000 + span / 2;
    const picks = [at(held), at(given), at(fresh)];
    const port = await freePort(
      () => picks.shift() ?? Math.random(),
      range,
      handed,
    );
    expect(picks).toEqual([]);
    expect(port).toBe(Math.floor(fresh));
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("ephemeralRange", () => {
  it("reads both ends from the kernel, and falls back to Linux's default", () => {
    expect(ephemeralRange(() => "49152\t65535\n")).toEqual({
      low: 49_152,
      high: 65_535,
    });
    const linux = { low: 32_768, high: 60_999 };
    expect(ephemeralRange(() => "nonsense")).toEqual(linux);
    expect(ephemeralRange(() => "60000 1024")).toEqual(linux);
    expect(
      ephemeralRange(() => {
        throw new Error("no /proc here");
      }),
    ).toEqual(linux);
  });
});

describe("portSpan", () => {
  it("is below the range when there is room, above it when the range starts low, else an error", () => {
    expect(portSpan({ low: 32_768, high: 60_999 })).toEqual({
      low: 10_000,
      high: 32_767,
    });
    expect(portSpan({ low: 1_024, high: 50_000 })).toEqual({
      low: 50_001,
      high: 65_535,
    });
    expect(() => portSpan({ low: 1_024, high: 65_000 })).toThrow(
      /ip_local_port_range/,
    );
  });
});
