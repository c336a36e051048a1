// `scripts/restore <backup-folder> [--service-env <file>] [--proxy-env <file>] [--replace]`:
// puts a backup made by scripts/backup back where the servers' settings name the stores, then
// checks the restored counts against the manifest's. Exit codes in USAGE.
import { resolve } from "node:path";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { describeCounts } from "./backups/describe.ts";
import { readManifest } from "./backups/manifest.ts";
import { putBack, RestoreError } from "./backups/put-back.ts";
import { placeName, SettingsError, storePlaces } from "./backups/stores.ts";

const USAGE = `Usage: scripts/restore <backup-folder> [--service-env <file>] [--proxy-env <file>] [--replace]
Restores a backup made by scripts/backup where the servers' settings name the stores (as
scripts/backup reads them: DATABASE_URL, else DATABASE_PATH and PROXY_DATABASE_PATH; --service-env
and --proxy-env read each server's environment file over the current environment), then counts
what is restored and checks it against the backup's manifest.

Restore into a new SQLite file (a new folder) or an empty PostgreSQL database, made by its
owner's role (e.g. createdb -O vics_proxy_owner vics_proxy_restored). A store that already
holds data is refused unless --replace is given: then stop every server that uses it first.
The backup holds no session: everyone signs in again.

Exit 0 when restored and the counts equal the manifest's, 1 when it cannot be done (settings,
a damaged backup, another engine, a failed pg_restore), 2 for a usage error, 3 when a store
already holds data, or a SQLite file is open in a running server (nothing is changed), 4 when
restored but the counts differ.`;

const { positionals, values } = readCliArgs(USAGE, {
  "service-env": { type: "string" },
  "proxy-env": { type: "string" },
  replace: { type: "boolean" },
});
if (positionals.length !== 1)
  fail(
    `${positionals.length === 0 ? "Say which backup folder to restore." : `Unknown argument "${positionals.slice(1).join(" ")}".`}\n${USAGE}`,
    2,
  );

// The restored files hold password hashes and the audit log: their owner's alone.
process.umask(0o077);

const folder = resolve(positionals[0]!);
try {
  const manifest = readManifest(folder);
  const places = storePlaces({
    service: values["service-env"],
    proxy: values["proxy-env"],
  });
  const started = performance.now();
  const counts = await putBack(folder, manifest, places, {
    replace: values.replace === true,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Restored the backup of ${manifest.takenAt} in ${seconds} s: the service's database at ${placeName(places.service)}, the proxy's store at ${placeName(places.proxy)}.\n` +
      `Verified: the restored stores hold what the manifest says, ${describeCounts({ counts })}.`,
  );
} catch (error) {
  if (error instanceof RestoreError) fail(error.message, error.code);
  if (error instanceof SettingsError) fail(error.message, 1);
  fail(
    `Not restored: ${error instanceof Error ? error.message : String(error)}`,
    1,
  );
}
