// The operator's import, for `npm run bench` (docs/import.md): 1,000,000 vehicles and a policy
// each, imported by `scripts/import` as an operator runs it, into an empty SQLite file and an
// empty PostgreSQL database (COPY into staging there), timed from the command's start to its
// end, both files; and the command's peak resident memory while it imports one 1 GB vehicles
// file (100 MB with --quick), read from /proc as it runs.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { isValidRegistration } from "@vics/shared";
import { startPostgres } from "@vics/server-kit/testing/postgres-server";
import { sampleRss } from "../scripts/load/rss.ts";
import { postgresMissing } from "./engines.ts";
import type { OpenResources } from "./open-resources.ts";
import type { Recorder } from "./recorder.ts";
import { ROOT } from "./servers.ts";

export const IMPORT_FLEET = 1_000_000;
const MB = 1024 * 1024;

export const IMPORT_FIGURES = [
  "import1m_sqlite_s",
  "import1m_postgres_s",
  "import_peak_rss_mb",
  "import_peak_file_mb",
];

const LETTERS = "ABCDEFGHJKLMNOPRSTUVWXY";

/**
 * Distinct valid current-format plates, one after another, enough for a 1 GB file: their age
 * identifiers (90-99: September 2040 to 2049) are not yet issued, so no synthetic vehicle has one.
 */
export function* importPlates(): Generator<string> {
  const base = LETTERS.length;
  const letter = (index: number, place: number) =>
    LETTERS[Math.floor(index / base ** place) % base] ?? "A";
  for (let age = 99; age >= 90; age--)
    for (let index = 0; index < base ** 5; index++) {
      const plate = `${letter(index, 0)}${letter(index, 1)}${age}${letter(index, 2)}${letter(index, 3)}${letter(index, 4)}`;
      if (isValidRegistration(plate)) yield plate;
    }
}

/** Writes `rows` lines after `header`, each from `line(i)`; resolves with the file's size. */
async function writeLines(
  path: string,
  header: string,
  rows: number,
  line: (index: number, plate: string) => string,
): Promise<number> {
  const out = createWriteStream(path);
  const plates = importPlates();
  let chunk = `${header}\n`;
  for (let index = 0; index < rows; index++) {
    chunk += `${line(index, plates.next().value ?? "")}\n`;
    if (chunk.length >= MB) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "close");
  return (await stat(path)).size;
}

const VEHICLES = "registration,make,model,year,colour,first_registered";
const POLICIES =
  "registration,policy_number,insurer,cover_type,valid_from,valid_to";

export function writeVehicles(path: string, rows: number) {
  return writeLines(
    path,
    VEHICLES,
    rows,
    (_, plate) => `${plate},Ford,Focus,2019,Blue,2019-03-01`,
  );
}

export function writePolicies(path: string, rows: number) {
  return writeLines(
    path,
    POLICIES,
    rows,
    (index, plate) =>
      `${plate},POL-${index},Northwind Mutual,"Third Party, Fire and Theft",2026-02-01,2027-01-31`,
  );
}

/** A vehicles file of at least `bytes`, its rows as long as a real register's. */
export async function writeBigVehicles(path: string, bytes: number) {
  const line = (_: number, plate: string) =>
    `${plate},Mercedes-Benz,C-Class Estate AMG Line Premium Plus,2019,Metallic Obsidian Black,2019-03-01`;
  const rowBytes = line(0, "AA99AAA").length + 1;
  return writeLines(path, VEHICLES, Math.ceil(bytes / rowBytes), line);
}

/** Runs `scripts/import` as an operator does: its seconds, and its peak RSS in MB. */
export async function runImport(
  args: string[],
  env: Record<string, string>,
): Promise<{ seconds: number; peakRssMb: number | undefined }> {
  const started = performance.now();
  const child = spawn(join(ROOT, "scripts/import"), args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2000);
  });
  // scripts/import execs node: the child's pid is the import's own.
  const rss = sampleRss({ import: child.pid }, 100);
  const [code] = (await once(child, "exit")) as [number | null];
  rss.stop();
  if (code !== 0)
    throw new Error(
      `scripts/import ${args.join(" ")} exited ${code}: ${errors}`,
    );
  const samples = (rss.samples.import ?? []).map(([, mb]) => mb);
  return {
    seconds: (performance.now() - started) / 1000,
    peakRssMb: samples.length > 0 ? Math.max(...samples) : undefined,
  };
}

export async function importFigures(
  context: { dataDir: string; quick: boolean; resources: OpenResources },
  recorder: Recorder,
): Promise<void> {
  const { figures, say } = recorder;
  const { dataDir } = context;
  const vehicles = join(dataDir, "import-vehicles.csv");
  const policies = join(dataDir, "import-policies.csv");
  await recorder.scenario(
    ["import1m_sqlite_s", "import1m_postgres_s"],
    async () => {
      say(
        `  writing ${IMPORT_FLEET.toLocaleString("en-GB")} vehicles and their policies to import...`,
      );
      await writeVehicles(vehicles, IMPORT_FLEET);
      await writePolicies(policies, IMPORT_FLEET);
      const both = async (env: Record<string, string>) => {
        const first = await runImport(["vehicles", vehicles], env);
        const second = await runImport(["policies", policies], env);
        return first.seconds + second.seconds;
      };
      figures.import1m_sqlite_s = await both({
        DATABASE_PATH: join(dataDir, "import.sqlite"),
        SEED_SYNTHETIC_FLEET: "false",
      });
      say(`  SQLite: ${figures.import1m_sqlite_s.toFixed(1)} s`);
      const missing = postgresMissing();
      if (missing) {
        figures.import1m_postgres_s = null;
        recorder.notes.import1m_postgres_s = `skipped: ${missing}`;
        return;
      }
      const server = await startPostgres();
      const close = context.resources.add(() => server.close());
      try {
        figures.import1m_postgres_s = await both({
          DATABASE_URL: await server.createDatabase("import_bench"),
        });
        say(`  PostgreSQL: ${figures.import1m_postgres_s.toFixed(1)} s`);
      } finally {
        await close();
      }
    },
    "1,000,000 vehicles, then a policy each, into an empty database",
  );
  await recorder.scenario(
    ["import_peak_rss_mb", "import_peak_file_mb"],
    async () => {
      const big = join(dataDir, "import-big.csv");
      const bytes = await writeBigVehicles(
        big,
        context.quick ? 100 * MB : 1024 * MB,
      );
      figures.import_peak_file_mb = bytes / MB;
      say(`  importing a ${Math.round(bytes / MB)} MB vehicles file...`);
      const run = await runImport(["vehicles", big], {
        DATABASE_PATH: join(dataDir, "import-big.sqlite"),
        SEED_SYNTHETIC_FLEET: "false",
      });
      figures.import_peak_rss_mb = run.peakRssMb ?? null;
      say(
        `  peak RSS ${Math.round(run.peakRssMb ?? 0)} MB over ${run.seconds.toFixed(0)} s`,
      );
    },
    "the import's peak memory over one big file",
  );
}
