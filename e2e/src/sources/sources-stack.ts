// The stack the live-source journeys run over: the VES stand-in as a process (DVLA's test
// environment as service/src/testing/sources/ves-stand-in.ts plays it) and `npm start`'s own
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
import { waitUntilAnswering } from "../faults/fault-stack.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const STAND_IN = "service/src/testing/sources/ves-stand-in.ts";

/**
 * A VES vehicle as DVLA's document has it; the stand-in answers it as given. The fields the
 * journeys use of VesVehicle (service/src/sources/dvla-ves-vehicle.ts, its schema's type), with
 * its values: e2e imports other workspaces only through their package's exports, and
 * @vics/service exports no entry that holds it.
 */
export interface VesVehicle {
  registrationNumber: string;
  taxStatus?: "Not Taxed for on Road Use" | "SORN" | "Taxed" | "Untaxed";
  /** YYYY-MM-DD. */
  taxDueDate?: string;
  motStatus?:
    "No details held by DVLA" | "No results returned" | "Not valid" | "Valid";
  /** YYYY-MM-DD. */
  motExpiryDate?: string;
  make?: string;
  colour?: string;
  yearOfManufacture?: number;
  /** YYYY-MM. */
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
  /**
   * One server's log so far; empty until its file exists. Lines travel child, pipe, file: a
   * line is not there the moment the browser has its answer, so a journey first polls until the
   * line it needs is written, and only then checks what the logs must not hold (else an empty
   * log would pass).
   */
  log(name: "service" | "proxy"): string;
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
    // The script builds the web app first when its sources changed since the last build.
    await waitUntilAnswering(url, stack, output, {
      timeoutMs: 170_000,
      name: "The sources stack",
    });
    const log = (name: "service" | "proxy") => {
      try {
        return readFileSync(join(dataDir, "logs", `${name}.log`), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
        throw error;
      }
    };
    return {
      url,
      dataDir,
      output,
      close,
      vesKey,
      log,
      logs: () => log("service") + log("proxy"),
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
