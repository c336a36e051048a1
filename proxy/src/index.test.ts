import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";

/** Start-up as an operator meets it: `node src/index.ts` in a child process. */

const ENTRY = fileURLToPath(new URL("./index.ts", import.meta.url));
const KEY = "vics_child_process_key_77d1e0";

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function startProxy(env: Record<string, string>) {
  // Only what the test sets, so a developer's own exports cannot change the result.
  const child = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH ?? "", WEB_DIST: tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const match = /open (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((exit) => reject(new Error(`exited: ${exit.stderr}`)));
  });
  url.catch(() => {}); // only awaited by tests that expect a start
  return { child, exited, url };
}

async function closedPortUrl(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function keyFile(contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "vics-proxy-key-")), "key");
  writeFileSync(file, contents);
  return file;
}

describe("node src/index.ts refuses to start", () => {
  it.each([
    [
      "without a key",
      {},
      /UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set/,
    ],
    ["with an empty key", { UPSTREAM_API_KEY: "" }, /must be set/],
    [
      "with an empty key file",
      { UPSTREAM_API_KEY_FILE: keyFile("\n") },
      /is empty/,
    ],
    [
      "with a key file it cannot read",
      { UPSTREAM_API_KEY_FILE: "/nonexistent/vics-key" },
      /cannot read \/nonexistent\/vics-key/,
    ],
    [
      "on a non-loopback HOST",
      { HOST: "0.0.0.0", UPSTREAM_API_KEY: KEY },
      /HOST=0\.0\.0\.0 is not a loopback address.*no staff sign-in yet/s,
    ],
    [
      "on a non-loopback HOST with ALLOW_REMOTE=1",
      { HOST: "0.0.0.0", ALLOW_REMOTE: "1", UPSTREAM_API_KEY: KEY },
      /no staff sign-in yet/,
    ],
  ])("%s: exit 1 and a clear message", async (_case, env, message) => {
    const exit = await startProxy(env).exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/The proxy cannot start/);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr + exit.stdout).not.toContain(KEY);
  });

  it("never prints the key read from a file", async () => {
    const exit = await startProxy({
      HOST: "192.168.0.9",
      PORT: "nope",
      UPSTREAM_API_KEY_FILE: keyFile(KEY),
    }).exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/PORT/);
    expect(exit.stderr).toMatch(/no staff sign-in/);
    expect(exit.stderr + exit.stdout).not.toContain(KEY);
  });
});

describe("node src/index.ts with a good environment", () => {
  it("prints the URL to open, answers, and stops cleanly on SIGTERM", async () => {
    const proxy = startProxy({
      PORT: "0",
      UPSTREAM_API_KEY: KEY,
      // Nothing listens there any more: the proxy must answer 502 itself.
      UPSTREAM_URL: await closedPortUrl(),
    });
    const url = await proxy.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const response = await fetch(`${url}api/v1/vehicle/AB12CDE/insurance`);
    expect(response.status).toBe(502);
    expect(ProblemSchema.parse(await response.json()).code).toBe("BAD_GATEWAY");

    proxy.child.kill("SIGTERM");
    const exit = await proxy.exited;
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(
      /request method=GET path=\/api\/v1\/vehicle\/AB12CDE\/insurance status=502/,
    );
    expect(exit.stdout + exit.stderr).toMatch(
      /the vehicle service is not answering/,
    );
    expect(exit.stdout + exit.stderr).not.toContain(KEY);
  });
});
