// The demo API key the proxy uses under `npm start`. It is kept in a file under data/
// (gitignored, mode 0600) that only the proxy reads; it is never printed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { API_KEY_HEADER, paths } from "@vics/shared";

interface KeyOptions {
  root: string;
  serviceUrl: string;
  dataDir: string;
  databasePath: string;
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

function createKey({ root, databasePath }: KeyOptions): string {
  const name = `proxy-demo-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  const output = execFileSync(
    process.execPath,
    ["service/src/keys-cli.ts", "create", "--plan", "internal", "--name", name],
    {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: databasePath },
      encoding: "utf8",
    },
  );
  const key = output.trim().split("\n").at(-1)?.trim();
  if (!key) throw new Error("The keys command printed no key");
  return key;
}

/** new: there was none; replaced: the saved one is not accepted by this database. */
export type KeyStatus = "new" | "reused" | "replaced";

export async function ensureProxyKey(
  options: KeyOptions,
): Promise<{ keyFile: string; status: KeyStatus }> {
  const keyFile = resolve(options.dataDir, "proxy-api-key");
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
