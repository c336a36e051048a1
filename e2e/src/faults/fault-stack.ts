// The stack the fault journeys run over: the fault-injecting upstream, in this worker process,
// and a real proxy child process (`node proxy/src/index.ts`) in front of it serving the built
// web app. A test switches the upstream's behaviour with `upstream.use(...)` and watches what
// the browser makes of it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  startFaultUpstream,
  type FaultUpstream,
} from "@vics/proxy/testing/fault-upstream";
import { freePort } from "@vics/shared/testing/free-port";
import { stopChild } from "../../../scripts/load/children.ts";
import {
  linkToken,
  signInWithLinkToken,
  type SessionCookie,
} from "../auth/sign-in.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");

/** Short, so that "slow" and "stall" end as the proxy's 504 in a second and a half. */
export const UPSTREAM_TIMEOUT_MS = 1500;

/** Longer than the proxy waits: a "slow" answer is always too slow. */
const SLOW_MS = UPSTREAM_TIMEOUT_MS * 4;

/** A made-up key in the proxy's format (printable, at least 20 characters); never valid anywhere. */
export const FAULT_PROXY_KEY = "vics_e2e_fault_journeys_0123456789abcdefghij";

export interface FaultStack {
  upstream: FaultUpstream;
  /** The proxy's own address, http://127.0.0.1:port: where the fault journeys browse. */
  proxyUrl: string;
  /** What the proxy has written so far (stdout and stderr; LOG_LEVEL=warn). */
  proxyOutput(): string;
  /** The first admin's session on this proxy, which every fault journey's browser uses. */
  session: SessionCookie;
}

/**
 * Waits until the child serving `url` answers it with a 2xx, or says why it never will: it
 * exited, or `timeoutMs` passed (30 s unless said). `name` is the child in those words ("The
 * fault proxy" unless said).
 */
export async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  output: () => string,
  { timeoutMs = 30_000, name = "The fault proxy" } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${name} exited with ${child.exitCode ?? child.signalCode}:\n${output()}`,
      );
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${name} did not answer at ${url}:\n${output()}`);
}

async function waitForLink(output: () => string): Promise<string> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (output().includes("#token=")) return output();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The fault proxy printed no sign-in link:\n${output()}`);
}

export async function startFaultStack(): Promise<{
  stack: FaultStack;
  close: () => Promise<void>;
}> {
  const upstream = await startFaultUpstream({ slowMs: SLOW_MS });
  const port = await freePort();
  const chunks: string[] = [];
  const output = () => chunks.join("");
  const child = spawn(process.execPath, ["proxy/src/index.ts"], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOST: "127.0.0.1",
      PORT: String(port),
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: FAULT_PROXY_KEY,
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      WEB_DIST: "web/dist",
      LOG_LEVEL: "warn",
      // A store of its own, never the repository's data folder.
      PROXY_DATABASE_PATH: join(
        mkdtempSync(join(tmpdir(), "vics-fault-proxy-")),
        "proxy.sqlite",
      ),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  const proxyUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(proxyUrl, child, output);
  } catch (error) {
    await stopChild(child);
    await upstream.close();
    throw error;
  }
  // Signed in through the first admin's link the proxy prints on its first start.
  let session: SessionCookie;
  try {
    session = await signInWithLinkToken(
      proxyUrl,
      linkToken(await waitForLink(output)),
    );
  } catch (error) {
    await stopChild(child);
    await upstream.close();
    throw error;
  }
  return {
    stack: { upstream, proxyUrl, proxyOutput: output, session },
    close: async () => {
      await stopChild(child);
      await upstream.close();
    },
  };
}
