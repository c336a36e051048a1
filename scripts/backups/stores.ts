// Where the two stores are, read as the servers read them: the service's database
// (DATABASE_URL, else DATABASE_PATH) and the proxy's store (DATABASE_URL, else
// PROXY_DATABASE_PATH; its owner's MIGRATION_DATABASE_URL when set). Each server has its own
// environment file on a real machine (/etc/vics/service.env, /etc/vics/proxy.env), and both
// name DATABASE_URL, so each is read over the process's environment on its own.
import { readEnvFile } from "../env-file.ts";
import { redactedUrl } from "@vics/server-kit/postgres-url";
import { parseStoreEnv } from "../../proxy/src/env/store-env.ts";
import { parseEnv as parseServiceEnv } from "../../service/src/env.ts";

export const STORE_NAMES = ["service", "proxy"] as const;
export type StoreName = (typeof STORE_NAMES)[number];

export type StorePlace =
  { engine: "sqlite"; path: string } | { engine: "postgresql"; url: string };

export type StorePlaces = Record<StoreName, StorePlace>;

/** A setting that cannot be read: the message says which and why; exit 1. */
export class SettingsError extends Error {}

/** The store's words for an operator: the file, or the URL without its password. */
export const placeName = (place: StorePlace): string =>
  place.engine === "sqlite" ? place.path : redactedUrl(place.url);

/** The process's environment with a systemd EnvironmentFile's variables over it, if given. */
export function environment(file: string | undefined): NodeJS.ProcessEnv {
  if (file === undefined) return process.env;
  try {
    return { ...process.env, ...readEnvFile(file) };
  } catch (error) {
    throw new SettingsError((error as Error).message);
  }
}

/** Both stores' places, from the service's and the proxy's environments. */
export function storePlaces(files: {
  service?: string;
  proxy?: string;
}): StorePlaces {
  const service = parseServiceEnv(environment(files.service));
  if (!service.ok)
    throw new SettingsError(
      `The service's settings${files.service ? ` in ${files.service}` : ""} are not valid:\n  - ${service.problems.join("\n  - ")}`,
    );
  const proxy = parseStoreEnv(environment(files.proxy));
  if (!proxy.ok)
    throw new SettingsError(
      `The proxy's store settings${files.proxy ? ` in ${files.proxy}` : ""} are not valid:\n  - ${proxy.errors.join("\n  - ")}`,
    );
  const { databaseUrl, migrationDatabaseUrl, databasePath } = proxy.env;
  return {
    service:
      service.env.DATABASE_URL === undefined
        ? { engine: "sqlite", path: service.env.DATABASE_PATH }
        : { engine: "postgresql", url: service.env.DATABASE_URL },
    // The owner's role when there is one: the proxy's own role may not read every table.
    proxy:
      databaseUrl === undefined
        ? { engine: "sqlite", path: databasePath }
        : { engine: "postgresql", url: migrationDatabaseUrl ?? databaseUrl },
  };
}

/**
 * Which database a PostgreSQL URL names (server, port, database), so that two stores in one
 * database are dumped and restored once. Roles may differ: the data is the same.
 */
export function databaseIdentity(url: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.slice(1));
  return `${parsed.hostname}:${parsed.port || "5432"}/${database}`;
}

/** The stores grouped by the file each is kept in: one per SQLite file, one per database. */
export function storeGroups(
  places: StorePlaces,
): Array<{ stores: StoreName[]; place: StorePlace }> {
  const groups: Array<{ key: string; stores: StoreName[]; place: StorePlace }> =
    [];
  for (const name of STORE_NAMES) {
    const place = places[name];
    const key =
      place.engine === "sqlite"
        ? `sqlite:${place.path}`
        : `postgresql:${databaseIdentity(place.url)}`;
    const group = groups.find((candidate) => candidate.key === key);
    if (!group) groups.push({ key, stores: [name], place });
    else {
      group.stores.push(name);
      // One database for both: the proxy's owner reads its tables, which its own role may not.
      if (name === "proxy") group.place = place;
    }
  }
  return groups.map(({ stores, place }) => ({ stores, place }));
}
