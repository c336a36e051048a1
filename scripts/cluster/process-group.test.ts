import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { answersOk, spawnInGroup, stopChild } from "./process-group.ts";

describe("process-group", () => {
  it("starts a program leading a process group of its own", async () => {
    const child = spawnInGroup("sleep", ["30"], { stdio: "ignore" });
    try {
      // Its own group: its process group id is its pid (/proc/<pid>/stat's fifth field).
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      expect(Number(fields[2])).toBe(child.pid);
    } finally {
      await stopChild(child, "SIGTERM", 5_000);
    }
  });

  it("stops with the signal given, and with SIGKILL after the grace when it ignores it", async () => {
    const polite = spawnInGroup("sleep", ["30"], { stdio: "ignore" });
    await stopChild(polite, "SIGTERM", 5_000);
    expect(polite.signalCode).toBe("SIGTERM");

    // An ignored signal stays ignored across exec: this sleep ignores SIGTERM.
    const stubborn = spawnInGroup("sh", ["-c", 'trap "" TERM; exec sleep 30'], {
      stdio: "ignore",
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await stopChild(stubborn, "SIGTERM", 300);
    expect(stubborn.signalCode).toBe("SIGKILL");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    // Stopping what has exited, or never started, does nothing.
    await expect(stopChild(stubborn, "SIGTERM", 10)).resolves.toBeUndefined();
    await expect(stopChild(undefined, "SIGTERM", 10)).resolves.toBeUndefined();
  });

  it("answersOk: true on a 2xx, false on another status or where nothing listens", async () => {
    let status = 200;
    const server = createServer((_, response) => {
      response.statusCode = status;
      response.end("body");
    });
    await new Promise<void>((resolve) =>
      server.listen(0, "127.0.0.1", resolve),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect(await answersOk(url)).toBe(true);
      status = 503;
      expect(await answersOk(url)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await answersOk(url)).toBe(false);
  });
});
