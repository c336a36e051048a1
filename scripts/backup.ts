// `scripts/backup <folder> [--service-env <file>] [--proxy-env <file>] [--keep <n>]`: backs up
// the service's database and the proxy's store, on SQLite or PostgreSQL, while the servers run,
// into a new folder with a manifest (scripts/backups/). Exit 0 when the backup is complete, 1 when
// it is not (nothing half-made is left), 2 for a usage error.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { describeCounts } from "./backups/describe.ts";
import { MANIFEST } from "./backups/manifest.ts";
import {
  isStalePartial,
  parseBackupName,
  sortBackups,
} from "./backups/names.ts";
import { storePlaces, placeName, SettingsError } from "./backups/stores.ts";
import { takeBackup } from "./backups/take.ts";

const USAGE = `Usage: scripts/backup <folder> [--service-env <file>] [--proxy-env <file>] [--keep <n>]
Backs up the service's database and the proxy's store while the servers run, into a new folder
<folder>/vics-backup-<UTC time> (only its owner may read it: it holds password hashes and keys):
a SQLite file is copied by VACUUM INTO, a PostgreSQL database dumped by pg_dump --format=custom,
and manifest.json records when, each file's engine and checksum, and each store's counts.
Sessions, one-time links and OIDC sign-ins under way are left out: after a restore everyone
signs in again.

The stores are found as the servers find them: the service's DATABASE_URL, else DATABASE_PATH;
the proxy's DATABASE_URL (its MIGRATION_DATABASE_URL, the owner, when set), else
PROXY_DATABASE_PATH. --service-env and --proxy-env read each server's environment file
(systemd's EnvironmentFile form, e.g. /etc/vics/service.env) over the current environment.
--keep <n> then deletes the oldest backups in <folder> past the newest n, and the folders of
backups that never finished (killed outright), a day old.

Exit 0 when the backup is complete, 1 when it is not (no half-made folder is left), 2 for a
usage error. scripts/restore puts a backup back.`;

const { positionals, values } = readCliArgs(USAGE, {
  "service-env": { type: "string" },
  "proxy-env": { type: "string" },
  keep: { type: "string" },
});
if (positionals.length !== 1)
  fail(
    `${positionals.length === 0 ? "Say where to write the backup." : `Unknown argument "${positionals.slice(1).join(" ")}".`}\n${USAGE}`,
    2,
  );
const keep = values.keep === undefined ? undefined : Number(values.keep);
if (keep !== undefined && !(/^\d+$/.test(values.keep!) && keep >= 1))
  fail(
    `--keep must be a whole number of backups, at least 1, not "${values.keep}".`,
    2,
  );

// The backup holds password hashes, key hashes and the audit log: its owner's alone.
process.umask(0o077);

let places;
try {
  places = storePlaces({
    service: values["service-env"],
    proxy: values["proxy-env"],
  });
} catch (error) {
  if (error instanceof SettingsError) fail(error.message, 1);
  throw error;
}

const parent = resolve(positionals[0]!);
const stamp = `vics-backup-${new Date()
  .toISOString()
  .replace(/\.\d+Z$/, "Z")
  .replaceAll(":", "-")}`;
try {
  mkdirSync(parent, { recursive: true, mode: 0o700 });
} catch (error) {
  fail(`Cannot make ${parent}: ${(error as Error).message}`, 1);
}
// Two backups in one second (by hand beside the timer) get a second name, never one folder:
// the .partial folder is made without `recursive`, so of two backups racing for one name only
// one makes it, and the other takes the next name.
let folder = "";
for (let n = 0; !folder; n++) {
  const candidate = join(parent, n === 0 ? stamp : `${stamp}-${n}`);
  if (existsSync(candidate)) continue;
  try {
    mkdirSync(`${candidate}.partial`, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
    fail(`Cannot make ${candidate}.partial: ${(error as Error).message}`, 1);
  }
  // Another backup's .partial may have just become this name's folder.
  if (existsSync(candidate))
    rmSync(`${candidate}.partial`, { recursive: true });
  else folder = candidate;
}
const partial = `${folder}.partial`;
// Stopped (Ctrl-C, systemctl stop), the half-made folder goes too: it holds password hashes.
// The conventional exit codes, 128 + the signal's number.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)
  process.once(signal, () => {
    rmSync(partial, { recursive: true, force: true });
    console.error(`Stopped by ${signal}: no backup was made.`);
    process.exit(code);
  });
const started = performance.now();
try {
  const manifest = await takeBackup(places, partial);
  renameSync(partial, folder);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Backed up in ${seconds} s: ${describeCounts(manifest)} (${manifest.leftOut.sessions} session${manifest.leftOut.sessions === 1 ? "" : "s"} left out).`,
  );
} catch (error) {
  rmSync(partial, { recursive: true, force: true });
  const reason = error instanceof Error ? error.message : String(error);
  fail(
    `No backup was made (the service's database at ${placeName(places.service)}, the proxy's store at ${placeName(places.proxy)}): ${reason}`,
    1,
  );
}

if (keep !== undefined) {
  const entries = readdirSync(parent);
  const backups = sortBackups(
    entries
      .filter((entry) => parseBackupName(entry) !== undefined)
      .filter((entry) => existsSync(join(parent, entry, MANIFEST))),
  );
  for (const old of backups.slice(0, Math.max(0, backups.length - keep))) {
    rmSync(join(parent, old), { recursive: true, force: true });
    console.log(
      `Deleted the older backup ${join(parent, old)} (--keep ${keep}).`,
    );
  }
  // A backup killed outright (SIGKILL, a power cut) leaves its .partial folder: one untouched
  // for a day is no backup under way.
  for (const entry of entries.filter(isStalePartial(parent, Date.now()))) {
    rmSync(join(parent, entry), { recursive: true, force: true });
    console.log(
      `Deleted ${join(parent, entry)}, a backup that never finished (--keep ${keep}).`,
    );
  }
}
// The last line is the folder, for a script or a timer's log.
console.log(folder);
