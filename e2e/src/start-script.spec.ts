// `npm start` (scripts/start.ts) as an operator meets it: it starts both processes on the ports
// it is given, keeps the demo key in the data folder without printing it, reuses that key next
// time, and Ctrl-C (SIGINT) stops both.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "./fixtures.ts";
import { freePort } from "./stack-env.ts";

const root = resolve(import.meta.dirname, "../..");

interface Run {
  output: () => string;
  ready: Promise<void>;
  stop: () => Promise<number | null>;
}

function startVics(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => done(code)),
  );
  const ready = new Promise<void>((done, fail) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("VICS is running")) done();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) =>
      fail(new Error(`start.ts exited early (${code}):\n${output}`)),
    );
  });
  return {
    output: () => output,
    ready,
    stop: () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

test("starts the service and proxy, keeps its key private, reuses it, and stops on Ctrl-C", async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), "vics-start-"));
  const port = await freePort();
  const servicePort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    SERVICE_PORT: String(servicePort),
  };
  const appUrl = `http://127.0.0.1:${port}/`;

  const first = startVics(env);
  await first.ready;
  expect(first.output()).toContain(`Open ${appUrl}`);
  expect(first.output()).toContain("Creating a demo API key");
  const page = await fetch(appUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
  const check = await fetch(`${appUrl}api/v1/vehicle/AB12CDE/insurance`);
  expect(check.status).toBe(200);
  expect(await check.json()).toMatchObject({
    registration: "AB12CDE",
    insured: true,
  });

  const keyFile = join(dataDir, "proxy-api-key");
  const key = readFileSync(keyFile, "utf8").trim();
  expect(key.length).toBeGreaterThanOrEqual(22);
  expect(statSync(keyFile).mode & 0o077).toBe(0);
  expect(first.output()).not.toContain(key);

  expect(await first.stop()).toBe(0);
  expect(await refused(appUrl)).toBe(true);
  expect(await refused(`http://127.0.0.1:${servicePort}/health`)).toBe(true);

  const second = startVics(env);
  await second.ready;
  expect(second.output()).not.toContain("Creating a demo API key");
  expect(readFileSync(keyFile, "utf8").trim()).toBe(key);
  expect(
    (await fetch(`${appUrl}api/v1/vehicle/AB12CDE/insurance`)).status,
  ).toBe(200);
  expect(await second.stop()).toBe(0);
});
