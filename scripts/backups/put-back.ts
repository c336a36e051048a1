// A backup put back: each file's checksum checked, each target found empty (or replaced, when
// asked), each file restored, and every store's counts read back to compare with the manifest.
import { join } from "node:path";
import {
  countDifferences,
  countStore,
  type ProxyCounts,
  type Select,
  type ServiceCounts,
} from "./counts.ts";
import { fileDigest } from "@vics/server-kit/file-digest";
import type { Manifest } from "./manifest.ts";
import { postgresHoldsData, restorePostgres } from "./postgres.ts";
import { restoreSqlite, sqliteHoldsData, sqliteInUse } from "./sqlite.ts";
import {
  databaseIdentity,
  placeName,
  type StoreName,
  type StorePlace,
  type StorePlaces,
} from "./stores.ts";

/** Why a restore stopped, with the exit code the CLI ends with. */
export class RestoreError extends Error {
  readonly code: 1 | 3 | 4;
  constructor(message: string, code: 1 | 3 | 4) {
    super(message);
    this.code = code;
  }
}

const ENGINE_WORDS = { sqlite: "a SQLite file", postgresql: "PostgreSQL" };

/** Each backup file with the place it goes to; refuses a place on the other engine. */
function targets(manifest: Manifest, places: StorePlaces) {
  return manifest.files.map((file) => {
    const wanted = file.stores.map((store) => places[store]);
    for (const [index, place] of wanted.entries())
      if (place.engine !== file.engine)
        throw new RestoreError(
          `The backup's ${file.stores[index]} store is ${ENGINE_WORDS[file.engine]}, and the settings put it in ${ENGINE_WORDS[place.engine]} (${placeName(place)}): a backup is restored onto the engine it was taken on.`,
          1,
        );
    const where = (place: StorePlace) =>
      place.engine === "sqlite" ? place.path : databaseIdentity(place.url);
    if (new Set(wanted.map(where)).size > 1)
      throw new RestoreError(
        `The backup holds the ${file.stores.join(" and ")} stores in one database, and the settings name two (${wanted.map(placeName).join(", ")}): name one for both.`,
        1,
      );
    const place =
      places[file.stores.includes("proxy") ? "proxy" : file.stores[0]!];
    return { file, place };
  });
}

/** Restores the backup in `folder` to `places`; returns the restored counts, equal to the manifest's. */
export async function putBack(
  folder: string,
  manifest: Manifest,
  places: StorePlaces,
  { replace }: { replace: boolean },
): Promise<Manifest["counts"]> {
  for (const file of manifest.files) {
    const digest = await fileDigest(join(folder, file.name)).catch(
      (error: NodeJS.ErrnoException) => {
        throw new RestoreError(
          `Cannot read ${join(folder, file.name)} (${error.code ?? error.message}).`,
          1,
        );
      },
    );
    if (digest.sha256 !== file.sha256 || digest.bytes !== file.bytes)
      throw new RestoreError(
        `${join(folder, file.name)} is not the file the backup wrote (its size or SHA-256 differs from the manifest's): it is damaged; restore another backup.`,
        1,
      );
  }
  const plan = targets(manifest, places);
  // Every target is looked at before any is written: a refusal changes nothing.
  const holding: string[] = [];
  for (const { place } of plan)
    if (
      place.engine === "sqlite"
        ? sqliteHoldsData(place.path)
        : await postgresHoldsData(place.url)
    )
      holding.push(placeName(place));
  if (holding.length > 0 && !replace)
    throw new RestoreError(
      `Not restored: ${holding.join(" and ")} already ${holding.length > 1 ? "hold" : "holds"} data. Restore into a new file or an empty database, or stop every server that uses it and run again with --replace to overwrite it.`,
      3,
    );
  // A SQLite file replaced under a running server is lost to it: the server goes on writing to
  // the file it has open, which is no longer the one at the path.
  const inUse = (path: string) => {
    try {
      return sqliteInUse(path);
    } catch (error) {
      throw new RestoreError((error as Error).message, 1);
    }
  };
  const open = plan
    .map(({ place }) => place)
    .filter((place) => place.engine === "sqlite" && inUse(place.path))
    .map(placeName);
  if (open.length > 0)
    throw new RestoreError(
      `Not restored: ${open.join(" and ")} ${open.length > 1 ? "are" : "is"} open in a running server. Stop every server that uses ${open.length > 1 ? "them" : "it"}, then run again.`,
      3,
    );

  const counts: Partial<Record<StoreName, ServiceCounts | ProxyCounts>> = {};
  for (const { file, place } of plan) {
    const read = async (select: Select) => {
      for (const store of file.stores)
        counts[store] = await countStore(store, select);
    };
    const path = join(folder, file.name);
    if (place.engine === "sqlite") await restoreSqlite(path, place.path, read);
    else await restorePostgres(path, place.url, { replace }, read);
  }
  const restored = {
    service: counts.service as ServiceCounts,
    proxy: counts.proxy as ProxyCounts,
  };
  const differences = [
    ...countDifferences("service", manifest.counts.service, restored.service),
    ...countDifferences("proxy", manifest.counts.proxy, restored.proxy),
  ];
  if (differences.length > 0)
    throw new RestoreError(
      `Restored, but what is there differs from the backup's manifest: do not start the servers on it.\n  - ${differences.join("\n  - ")}`,
      4,
    );
  return restored;
}
