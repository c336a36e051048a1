// `scripts/import <kind> <file> [options]` and `scripts/import history`: the operator's
// import (docs/import.md), into DATABASE_URL's PostgreSQL, else the SQLite file at
// DATABASE_PATH.
import { userInfo } from "node:os";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { DATE_FORMATS, type DateFormat } from "@vics/shared/import/dates";
import { IMPORT_KINDS, type ImportKind } from "@vics/shared/import/rows";
import { loadEnv } from "./env.ts";
import { ENCODINGS, type Encoding } from "./import/decode.ts";
import { historyTable, reportWords } from "./import/report-words.ts";
import { runImport } from "./import/run-import.ts";
import {
  FILE_FORMATS,
  type FileFormat,
  formatOfName,
} from "./import/read-rows.ts";
import {
  databaseOpenMessage,
  databasePlace,
  databaseSettings,
  type ImportTarget,
  openImportTarget,
} from "./store/open-store.ts";

const USAGE = `Usage:
  scripts/import <kind> <file> [options]   import a CSV or JSON Lines file of one kind: ${IMPORT_KINDS.join(", ")}
  scripts/import history [--limit <n>]     list the imports, newest first (default 20)
Options:
  --mode upsert|snapshot    upsert (default): rows add or change records; snapshot: the file
                            is the whole truth for its kind, and records it leaves out go
  --max-delete-pct <n>      a snapshot that would remove more than n% is refused (default 10)
  --force                   apply a snapshot even past --max-delete-pct
  --dry-run                 do all the work, say what would change, then change nothing
  --format csv|jsonl        CSV with a header row, or JSON Lines (one object per line);
                            default: jsonl for a .jsonl or .ndjson file, else csv
  --dates iso|uk            the file's dates are YYYY-MM-DD (default) or DD/MM/YYYY
  --encoding utf-8|windows-1252   the file's encoding when it has no byte-order mark
  --rejects <path>          where refused rows go (default: <file>.rejects.csv)
  --by <name>               who is running it, for the history (default: the login name)
  --as-of <instant>         when the file's data was current at its source, such as
                            2026-11-24T06:00:00Z (default: now); answers show it as the
                            source's freshness
  --over-synthetic          import into a database that holds the synthetic fleet
The database is DATABASE_URL's PostgreSQL, else the SQLite file at DATABASE_PATH.
See docs/import.md.`;

const { values, positionals } = readCliArgs(USAGE, {
  mode: { type: "string", default: "upsert" },
  "max-delete-pct": { type: "string", default: "10" },
  force: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  dates: { type: "string" },
  format: { type: "string" },
  encoding: { type: "string" },
  rejects: { type: "string" },
  by: { type: "string" },
  "as-of": { type: "string" },
  limit: { type: "string", default: "20" },
  "over-synthetic": { type: "boolean", default: false },
});

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  option: string,
): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T;
  return fail(
    `${option} must be one of ${allowed.join(", ")}, not "${value}".`,
    2,
  );
}

function wholeNumber(value: string, option: string, max = Infinity): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > max)
    fail(
      `${option} must be a whole number${max < Infinity ? ` up to ${max}` : ""}, not "${value}".`,
      2,
    );
  return number;
}

/** An instant with its offset, not in the future: when the file's data was current. */
function instant(value: string | undefined, option: string): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(
      value,
    ) ||
    Number.isNaN(at.getTime())
  )
    return fail(
      `${option} must be an instant with its offset, like 2026-11-24T06:00:00Z, not "${value}".`,
      2,
    );
  if (at.getTime() > Date.now())
    return fail(`${option} ${value} is in the future.`, 2);
  return at;
}

const env = loadEnv();
const settings = databaseSettings(env, "vics-import");
const [command, file, ...rest] = positionals;
let target: ImportTarget;
try {
  target = await openImportTarget(settings);
} catch (error) {
  fail(databaseOpenMessage(settings, error), 1);
}
try {
  const store = target.imports;
  if (command === "history") {
    if (file !== undefined) fail(`history takes no file.\n${USAGE}`, 2);
    console.log(
      historyTable(
        await store.listImports(wholeNumber(values.limit, "--limit")),
      ),
    );
  } else {
    const kind = IMPORT_KINDS.find((name) => name === command) as
      ImportKind | undefined;
    if (!kind)
      fail(
        `${command ? `Unknown kind "${command}".` : "Missing kind."}\n${USAGE}`,
        2,
      );
    if (file === undefined || rest.length > 0)
      fail(`Name one file.\n${USAGE}`, 2);
    if ((await target.holdsSyntheticFleet()) && !values["over-synthetic"])
      fail(
        `The database at ${databasePlace(settings)} holds the synthetic fleet, which real data must not sit beside. Import into a new, empty database (SEED_SYNTHETIC_FLEET=false DATABASE_PATH=<new file> scripts/db migrate), or, for a trial, add --over-synthetic (the sandbox plates then stop answering).`,
        1,
      );
    const report = await runImport(
      store,
      {
        kind,
        path: file,
        mode:
          oneOf(values.mode, ["upsert", "snapshot"] as const, "--mode") ??
          "upsert",
        maxDeletePct: wholeNumber(
          values["max-delete-pct"],
          "--max-delete-pct",
          100,
        ),
        force: values.force,
        dryRun: values["dry-run"],
        dates: oneOf<DateFormat>(values.dates, DATE_FORMATS, "--dates"),
        format:
          oneOf<FileFormat>(values.format, FILE_FORMATS, "--format") ??
          formatOfName(file),
        encoding: oneOf<Encoding>(values.encoding, ENCODINGS, "--encoding"),
        rejectsPath: values.rejects ?? `${file}.rejects.csv`,
        runBy: values.by ?? userInfo().username,
        dataAsOf: instant(values["as-of"], "--as-of"),
      },
      () => new Date(),
    );
    const { text, code } = reportWords(report, { kind, file });
    (code === 0 ? console.log : console.error)(text);
    process.exitCode = code;
  }
} finally {
  await target.close();
}
