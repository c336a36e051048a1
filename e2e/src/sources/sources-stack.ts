// The stack the live-source journeys run over: the VES stand-in as a process (DVLA's test
// environment as service/src/sources/testing/ves-stand-in.ts plays it) and `npm start`'s own
// script with the DVLA source turned on against it, as docs/sources.md says an operator turns it
// on (DVLA_VES_API_KEY_FILE, DVLA_VES_BASE_URL), on free ports and a fresh data folder. Not the
// main stack: with a register on, every check of the seeded fleet would ask it.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { stopChild } from "../../../scripts/load/children.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const STAND_IN = "service/src/sources/testing/ves-stand-in.ts";

/** A VES vehicle as DVLA's document has it; the stand-in answers it as given. */
export interface VesVehicle {
  registrationNumber: string;
  taxStatus?: "Taxed" | "Untaxed" | "SORN" | "Not Taxed for on Road Use";
  taxDueDate?: string;
  motStatus?: "Valid" | "Not valid" | "No details held by DVLA";
  motExpiryDate?: string;
  make?: string;
  colour?: string;
  yearOfManufacture?: number;
  monthOfFirstRegistration?: string;
}

export interface VesStandInControl {
  url: string;
  /** The stand-in answers this vehicle from now on. */
  putVehicle(vehicle: VesVehicle): Promise<void>;
  /** The stand-in accepts only this key from now on: the service's own is refused, 403. */
  setApiKey(key: string): Promise<void>;
}

export interface SourcesStack {
  /** The proxy's address, http://127.0.0.1:port: where the journeys browse. */
  url: string;
  dataDir: string;
  ves: VesStandInControl;
  /** The DVLA key the service was given (its file's content). */
  vesKey: string;
  /** The service's and the proxy's log lines so far, for what they must never hold. */
  logs(): string;
  /** What the stack has printed so far, for a failure's message. */
  output(): string;
  close(): Promise<void>;
}

function collect(child: ChildProcess, chunks: string[]) {
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
}

/** The first line the stand-in prints: its URL. */
function firstLine(child: ChildProcess, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const text = chunks.join("");
      if (!text.includes("\n")) return;
      stop();
      resolve(text.split("\n")[0]!.trim());
    };
    const onExit = () => {
      stop();
      reject(new Error(`The VES stand-in exited:\n${chunks.join("")}`));
    };
    const stop = () => {
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
    };
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

async function putTo(url: string, body: string): Promise<void> {
  const response = await fetch(url, { method: "PUT", body });
  if (response.status !== 204)
    throw new Error(`PUT ${url}: the stand-in answered ${response.status}`);
}

/** Until the stack's proxy answers its home page, or the script has exited. */
async function waitUntilUp(
  url: string,
  child: ChildProcess,
  output: () => string,
) {
  // The script builds the web app first when its sources changed since the last build.
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The sources stack exited:\n${output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The sources stack did not answer at ${url}:\n${output()}`);
}

export async function startSourcesStack(): Promise<SourcesStack> {
  const folder = mkdtempSync(join(tmpdir(), "vics-e2e-sources-"));
  const dataDir = join(folder, "data");
  mkdirSync(dataDir, { mode: 0o700 });
  const keyFile = join(folder, "dvla-ves-api-key");
  const vesKey = randomBytes(24).toString("base64url");
  writeFileSync(keyFile, `${vesKey}\n`, { mode: 0o600 });
  const chunks: string[] = [];
  const output = () => chunks.join("");
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const child of children.reverse()) await stopChild(child);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const standInChunks: string[] = [];
    const standIn = spawn(
      process.execPath,
      [STAND_IN, "--port", "0", "--api-key-file", keyFile],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(standIn);
    collect(standIn, standInChunks);
    const vesUrl = await firstLine(standIn, standInChunks);

    const port = await freePort();
    const stack = spawn(process.execPath, ["scripts/start.ts"], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        SERVICE_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        DVLA_VES_API_KEY_FILE: keyFile,
        DVLA_VES_BASE_URL: vesUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(stack);
    collect(stack, chunks);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(url, stack, output);
    return {
      url,
      dataDir,
      output,
      close,
      vesKey,
      logs: () =>
        ["service", "proxy"]
          .map((name) =>
            readFileSync(join(dataDir, "logs", `${name}.log`), "utf8"),
          )
          .join(""),
      ves: {
        url: vesUrl,
        putVehicle: (vehicle) =>
          putTo(
            `${vesUrl}/_stand-in/vehicles/${vehicle.registrationNumber}`,
            JSON.stringify(vehicle),
          ),
        setApiKey: (key) => putTo(`${vesUrl}/_stand-in/api-key`, key),
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
