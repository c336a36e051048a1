// The API key a proxy uses: kept in a file (gitignored under data/, mode 0600) that only the
// proxy reads, never printed; made with the keys command against the service's own database,
// and made again when that database no longer accepts it. `npm start` and `npm run cluster`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { API_KEY_HEADER, paths, type Plan } from "@vics/shared";

interface KeyOptions {
  root: string;
  serviceUrl: string;
  keyFile: string;
  /** Where the keys command finds the service's database (DATABASE_PATH or DATABASE_URL). */
  databaseEnv: Record<string, string>;
  /** Before the key's time-stamped name, e.g. "proxy-demo". */
  namePrefix: string;
}

async function keyIsAccepted(
  serviceUrl: string,
  key: string,
): Promise<boolean> {
  const response = await fetch(serviceUrl + paths.insurance("AB12CDE"), {
    headers: { [API_KEY_HEADER]: key },
  });
  await response.body?.cancel();
  return response.status !== 401;
}

/**
 * A new API key of `plan`, made with the keys command (as an operator would) in the database
 * `databaseEnv` names (DATABASE_PATH, or DATABASE_URL for PostgreSQL); `name` must be new there.
 * Returns the key the command printed on its last line.
 */
export function createApiKey(
  root: string,
  databaseEnv: Record<string, string>,
  plan: Plan,
  name: string,
): string {
  const output = execFileSync(
    process.execPath,
    ["service/src/keys-cli.ts", "create", "--plan", plan, "--name", name],
    {
      cwd: root,
      env: { ...process.env, ...databaseEnv },
      encoding: "utf8",
    },
  );
  const key = output.trim().split("\n").at(-1)?.trim();
  if (!key) throw new Error("The keys command printed no key");
  return key;
}

const createKey = ({ root, databaseEnv, namePrefix }: KeyOptions): string =>
  createApiKey(
    root,
    databaseEnv,
    "internal",
    `${namePrefix}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  );

/** new: there was none; replaced: the saved one is not accepted by this database. */
export type KeyStatus = "new" | "reused" | "replaced";

export async function ensureProxyKey(
  options: KeyOptions,
): Promise<{ keyFile: string; status: KeyStatus }> {
  const { keyFile } = options;
  let status: KeyStatus = "new";
  if (existsSync(keyFile)) {
    const key = readFileSync(keyFile, "utf8").trim();
    if (key && (await keyIsAccepted(options.serviceUrl, key)))
      return { keyFile, status: "reused" };
    status = "replaced";
  }
  writeFileSync(keyFile, `${createKey(options)}\n`, { mode: 0o600 });
  return { keyFile, status };
}
