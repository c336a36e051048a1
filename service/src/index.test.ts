import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { ComplianceRecordSchema } from "@vics/shared";
import {
  expectOneLogFormat,
  logEvents as logLines,
} from "@vics/server-kit/testing/log-lines";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./env.ts";

const SERVICE = join(import.meta.dirname, "index.ts");
const CLI = join(import.meta.dirname, "keys-cli.ts");
let dir: string;
let databasePath: string;
let child: ChildProcess | undefined;
let serviceOutput = "";

/** Every line the service wrote to stdout, parsed. */
const logEvents = () => logLines(serviceOutput);

/**
 * Resolves with the base URL once the service logs that it listens. It runs in a folder
 * outside the repository and gets DATABASE_PATH relative to the repository root: relative
 * paths must not depend on the working directory.
 */
function startService(): Promise<string> {
  const elsewhere = join(dir, "some", "other", "folder");
  mkdirSync(elsewhere, { recursive: true });
  const service = spawn(process.execPath, [SERVICE], {
    cwd: elsewhere,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_PATH: relative(REPO_ROOT, databasePath),
      SANDBOX: "",
      LOG_LEVEL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = service;
  return new Promise((resolve, reject) => {
    service.stdout?.on("data", (chunk: Buffer) => {
      serviceOutput += chunk.toString();
      if (!serviceOutput.endsWith("\n")) return;
      const listening = logEvents().find((event) => event.msg === "listening");
      if (listening) resolve(String(listening.url));
    });
    service.on("exit", (code) =>
      reject(new Error(`service exited early (${code}): ${serviceOutput}`)),
    );
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-index-"));
  databasePath = join(dir, "vics.sqlite");
});
afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("node src/index.ts", { timeout: 60_000 }, () => {
  it("seeds a new database at a path relative to the repository root, serves /health and a check, logs JSON lines, and stops cleanly on SIGTERM", async () => {
    const baseUrl = await startService();
    expect(existsSync(databasePath)).toBe(true);
    const health = await fetch(`${baseUrl}/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(logEvents()).toContainEqual(
      expect.objectContaining({
        level: "info",
        service: "service",
        msg: "database created and seeded",
        databasePath,
        durationMs: expect.any(Number),
      }),
    );
    expect(logEvents()).toContainEqual(
      expect.objectContaining({
        msg: "listening",
        sandbox: true,
        databasePath,
      }),
    );

    // The keys CLI works against the same database while the service runs.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, "create", "--plan", "standard", "--name", "smoke"],
      {
        env: { ...process.env, DATABASE_PATH: databasePath },
      },
    );
    const key = stdout.trimEnd().split("\n").at(-1) ?? "";
    const response = await fetch(`${baseUrl}/v1/compliance/MT15EXP`, {
      headers: { "X-API-Key": key },
    });
    expect(response.status).toBe(200);
    expect(
      ComplianceRecordSchema.parse(await response.json()).checks.motValid,
    ).toBe(false);

    // The unauthenticated limit is per socket address: 30 bad keys from one client, each
    // claiming another X-Forwarded-For, still exhaust it (the test double elsewhere cannot).
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const guess = await fetch(`${baseUrl}/v1/vehicle/AB12CDE/insurance`, {
        headers: {
          "X-API-Key": `guess-${attempt}`,
          "X-Forwarded-For": `203.0.113.${attempt}`,
        },
      });
      statuses.push(guess.status);
      await guess.body?.cancel();
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    const exited = new Promise<number | null>((resolve) =>
      // "close": after the exit and the last of its output, which the checks below read.
      child?.on("close", resolve),
    );
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);

    // One JSON format throughout; the last line, written just before exit, was flushed.
    const events = logEvents();
    expectOneLogFormat(events, "service");
    // The stop began on SIGTERM and ended with nothing left in flight. (Not checked in order:
    // at exit, pino's synchronous flush can land before an asynchronous write under way.)
    expect(events).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/^stopping/),
        signal: "SIGTERM",
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ msg: "stopped", finishedInFlight: 0 }),
    );
    const requests = events.filter((event) => event.msg === "request");
    expect(requests.map((event) => event.route)).toEqual([
      "/v1/compliance/:registration",
      ...Array(31).fill("/v1/vehicle/:registration/insurance"),
    ]);
    expect(serviceOutput).not.toMatch(/MT15EXP|AB12CDE|\/health/);
  });

  it("makes a database another user could read the service's alone at its next start, and says so once", async () => {
    chmodSync(databasePath, 0o644);
    serviceOutput = "";
    await startService();
    expect(statSync(databasePath).mode & 0o777).toBe(0o600);
    const exited = new Promise((resolve) => child?.on("close", resolve));
    child?.kill("SIGTERM");
    await exited;
    expect(
      logEvents().filter((event) =>
        String(event.msg).includes("readable by other users"),
      ),
    ).toEqual([
      expect.objectContaining({
        level: "warn",
        files: expect.stringContaining("vics.sqlite (was 644)"),
      }),
    ]);
  });

  it("refuses to start with a bad environment, naming every bad variable", async () => {
    const result = await promisify(execFile)(process.execPath, [SERVICE], {
      env: {
        ...process.env,
        PORT: "eighty",
        SANDBOX: "maybe",
        DATABASE_PATH: databasePath,
      },
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in result ? result.code : 0).toBe(1);
    expect("stderr" in result ? result.stderr : "").toMatch(
      /PORT[\s\S]*SANDBOX/,
    );
  });

  it("refuses a damaged database file with one clear message and no stack", async () => {
    const damaged = join(dir, "damaged.sqlite");
    writeFileSync(
      damaged,
      "this is not a database, just some text\n".repeat(200),
    );
    const result = await promisify(execFile)(process.execPath, [SERVICE], {
      env: { ...process.env, PORT: "0", DATABASE_PATH: damaged },
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in result ? result.code : 0).toBe(1);
    const stderr = "stderr" in result ? result.stderr : "";
    expect(stderr).toContain(`Cannot open the database at ${damaged}`);
    expect(stderr).toContain("file is not a database");
    expect(stderr).toMatch(/move it aside/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("says so, without a stack, when its port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) =>
      blocker.listen(0, "127.0.0.1", resolve),
    );
    const address = blocker.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const result = await promisify(execFile)(process.execPath, [SERVICE], {
        env: {
          ...process.env,
          HOST: "127.0.0.1",
          PORT: String(port),
          DATABASE_PATH: databasePath,
        },
      }).catch((error: { code: number; stderr: string }) => error);
      expect("code" in result ? result.code : 0).toBe(1);
      const stderr = "stderr" in result ? result.stderr : "";
      expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(stderr).toMatch(/port is in use; set PORT/);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});
