// The VES stand-in's own switches, and its use as a process by the e2e suite and the bench.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";
import { afterEach, describe, expect, it } from "vitest";
import { startVesStandIn, type VesStandIn } from "./ves-stand-in.ts";

const STAND_IN = join(import.meta.dirname, "ves-stand-in.ts");

const ask = (url: string, registration: string, key = "ves-test-key") =>
  fetch(`${url}/v1/vehicles`, {
    method: "POST",
    headers: { "x-api-key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ registrationNumber: registration }),
  });

describe("the VES stand-in", () => {
  let standIn: VesStandIn | undefined;
  afterEach(() => standIn?.close());

  // The documented model (API Gateway's token bucket): a burst of B at once, then N a second.
  it("lets a burst through at once, answers the next in the same instant 429 with Retry-After, and refills at its rate", async () => {
    let now = new Date("2026-11-29T10:00:00.000Z");
    const at = (ms: number) =>
      (now = new Date(Date.parse("2026-11-29T10:00:00.000Z") + ms));
    standIn = await startVesStandIn({
      now: () => now,
      ratePerSecond: 2,
      burst: 4,
    });
    const url = standIn.url;
    const statuses = async (count: number) => {
      const seen = [];
      for (let sent = 0; sent < count; sent++)
        seen.push((await ask(url, "AA19AAA")).status);
      return seen;
    };
    expect(await statuses(4)).toEqual([200, 200, 200, 200]);
    const refused = await ask(url, "AA19AAA");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    // Half a second at 2 a second is one token; a second and a half more, three.
    at(500);
    expect(await statuses(2)).toEqual([200, 429]);
    at(2000);
    expect(await statuses(4)).toEqual([200, 200, 200, 429]);
    // Ten idle seconds fill the bucket to its size, no more.
    at(12_000);
    expect(await statuses(5)).toEqual([200, 200, 200, 200, 429]);
  });

  it("holds a burst of its rate when given none, and takes a new rate and burst from setRate", async () => {
    const now = new Date("2026-11-29T10:00:00.000Z");
    standIn = await startVesStandIn({ now: () => now, ratePerSecond: 3 });
    const statuses = async (count: number) => {
      const seen = [];
      for (let sent = 0; sent < count; sent++)
        seen.push((await ask(standIn!.url, "AA19AAA")).status);
      return seen;
    };
    expect(await statuses(4)).toEqual([200, 200, 200, 429]);
    // A new limit starts with its bucket full; a rate of 1 in 100 s says wait 100 s.
    standIn.setRate(0.01, 2);
    expect(await statuses(3)).toEqual([200, 200, 429]);
    const refused = await ask(standIn.url, "AA19AAA");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("100");
    standIn.setRate(undefined);
    expect(await statuses(5)).toEqual([200, 200, 200, 200, 200]);
    expect(() => standIn!.setRate(5, 0)).toThrow(RangeError);
  });

  it("counts every request, refused ones too, and refuses a missing key with 403", async () => {
    standIn = await startVesStandIn();
    const refused = await fetch(`${standIn.url}/v1/vehicles`, {
      method: "POST",
      body: JSON.stringify({ registrationNumber: "AA19AAA" }),
    });
    expect(refused.status).toBe(403);
    expect((await ask(standIn.url, "AA 19 AAA")).status).toBe(400);
    expect(standIn.requests.map((request) => request.status)).toEqual([
      403, 400,
    ]);
  });

  it("answers a vehicle put through /_stand-in/vehicles, and only the key put through /_stand-in/api-key", async () => {
    standIn = await startVesStandIn();
    const put = (path: string, body: string) =>
      fetch(`${standIn!.url}/_stand-in/${path}`, { method: "PUT", body });
    const vehicle = {
      registrationNumber: "ZQ25VES",
      taxStatus: "Taxed",
      taxDueDate: "2027-06-01",
    };
    expect((await ask(standIn.url, "ZQ25VES")).status).toBe(404);
    expect(
      (await put("vehicles/zq25%20ves", JSON.stringify(vehicle))).status,
    ).toBe(204);
    const found = await ask(standIn.url, "ZQ25VES");
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual(vehicle);

    expect((await put("api-key", "new-key\n")).status).toBe(204);
    expect((await ask(standIn.url, "ZQ25VES")).status).toBe(403);
    expect((await ask(standIn.url, "ZQ25VES", "new-key")).status).toBe(200);

    // Bodies it cannot use change nothing; a switch it does not have is a 404.
    expect((await put("vehicles/ZQ25VES", "{not json")).status).toBe(400);
    expect((await put("api-key", " ")).status).toBe(400);
    expect((await put("rate", "1")).status).toBe(404);
    expect((await ask(standIn.url, "ZQ25VES", "new-key")).status).toBe(200);
    // The switches are not look-ups: only the five asks above are counted.
    expect(standIn.requests.map((request) => request.status)).toEqual([
      404, 200, 403, 200, 200,
    ]);
  });

  it("runs as a process with --port, --api-key-file, --rate and --burst, printing its URL", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-ves-"));
    const keyFile = join(folder, "key");
    writeFileSync(keyFile, "key-from-file\n");
    const child = spawn(
      process.execPath,
      // One token in 100 s: the third ask is refused however slow the machine.
      [
        STAND_IN,
        ...["--port", "0", "--api-key-file", keyFile],
        ...["--rate", "0.01", "--burst", "2"],
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    killOnExit(child);
    try {
      const [line] = (await once(child.stdout, "data")) as [Buffer];
      const url = line.toString().trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await ask(url, "AA19SRN", "key-from-file")).status).toBe(200);
      expect((await ask(url, "AA19SRN")).status).toBe(403);
      expect((await ask(url, "AA19SRN", "key-from-file")).status).toBe(200);
      const refused = await ask(url, "AA19SRN", "key-from-file");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("100");
      // Its key revoked, as an e2e journey does it.
      const revoke = await fetch(`${url}/_stand-in/api-key`, {
        method: "PUT",
        body: "another-key",
      });
      expect(revoke.status).toBe(204);
      expect((await ask(url, "AA19SRN", "key-from-file")).status).toBe(403);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
