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

  it("answers 429 with Retry-After past its rate, within one second of its clock", async () => {
    let now = new Date("2026-11-29T10:00:00.000Z");
    standIn = await startVesStandIn({ now: () => now, ratePerSecond: 2 });
    const statuses = [];
    for (let sent = 0; sent < 3; sent++)
      statuses.push((await ask(standIn.url, "AA19AAA")).status);
    const refused = await ask(standIn.url, "AA19AAA");
    expect([...statuses, refused.status]).toEqual([200, 200, 429, 429]);
    expect(refused.headers.get("retry-after")).toBe("1");
    now = new Date("2026-11-29T10:00:01.000Z");
    expect((await ask(standIn.url, "AA19AAA")).status).toBe(200);
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

  it("runs as a process with --port and --api-key-file, printing its URL", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-ves-"));
    const keyFile = join(folder, "key");
    writeFileSync(keyFile, "key-from-file\n");
    const child = spawn(
      process.execPath,
      [STAND_IN, "--port", "0", "--api-key-file", keyFile],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    killOnExit(child);
    try {
      const [line] = (await once(child.stdout, "data")) as [Buffer];
      const url = line.toString().trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await ask(url, "AA19SRN", "key-from-file")).status).toBe(200);
      expect((await ask(url, "AA19SRN")).status).toBe(403);
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
