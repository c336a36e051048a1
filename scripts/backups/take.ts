// One backup of both stores into a folder: each store's file (a SQLite copy, a PostgreSQL
// dump; one for two stores in one database) and manifest.json, written last.
import { join } from "node:path";
import { countStore, type ProxyCounts, type ServiceCounts } from "./counts.ts";
import { noneLeftOut } from "./left-out.ts";
import { type BackupFile, type Manifest, writeManifest } from "./manifest.ts";
import { fileDigest } from "@vics/server-kit/file-digest";
import { dumpPostgres } from "./postgres.ts";
import { backupSqlite } from "./sqlite.ts";
import { type StorePlaces, type StoreName, storeGroups } from "./stores.ts";

/** Backs up both stores into `folder` (made, empty); returns the manifest written there. */
export async function takeBackup(
  places: StorePlaces,
  folder: string,
  now: () => Date = () => new Date(),
): Promise<Manifest> {
  const takenAt = now().toISOString();
  const counts: Partial<Record<StoreName, ServiceCounts | ProxyCounts>> = {};
  const leftOut = noneLeftOut();
  const files: BackupFile[] = [];
  for (const { stores, place } of storeGroups(places)) {
    const name = `${stores.length === 1 ? stores[0] : "database"}.${place.engine === "sqlite" ? "sqlite" : "dump"}`;
    const file = join(folder, name);
    const read = async (select: Parameters<typeof countStore>[1]) => {
      for (const store of stores)
        counts[store] = await countStore(store, select);
    };
    const options = { proxy: stores.includes("proxy") };
    const left =
      place.engine === "sqlite"
        ? await backupSqlite(place.path, file, options, read)
        : await dumpPostgres(place.url, file, options, read);
    if (options.proxy) {
      Object.assign(leftOut, left);
      // Counted in the dump's snapshot; the dump holds the table without its rows.
      (counts.proxy as ProxyCounts).sessions = 0;
    }
    files.push({
      name,
      engine: place.engine,
      stores,
      ...(await fileDigest(file)),
    });
  }
  const manifest: Manifest = {
    format: 1,
    takenAt,
    finishedAt: now().toISOString(),
    files,
    counts: {
      service: counts.service as ServiceCounts,
      proxy: counts.proxy as ProxyCounts,
    },
    leftOut,
  };
  writeManifest(folder, manifest);
  return manifest;
}
