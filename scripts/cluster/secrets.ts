// The cluster's passwords and keys, made on its first run and kept in the data folder (mode
// 0600, gitignored with the rest of data/), so a second run finds its databases as it left them.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const SecretsSchema = z.object({
  postgresPassword: z.string().min(16),
  servicePassword: z.string().min(16),
  proxyPassword: z.string().min(16),
  proxyOwnerPassword: z.string().min(16),
  logHashKey: z.string().min(16),
});

export type Secrets = z.infer<typeof SecretsSchema>;

const fresh = () => randomBytes(24).toString("base64url");

export function ensureSecrets(dataDir: string): Secrets {
  const file = join(dataDir, "secrets.json");
  if (existsSync(file))
    return SecretsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  const secrets: Secrets = {
    postgresPassword: fresh(),
    servicePassword: fresh(),
    proxyPassword: fresh(),
    proxyOwnerPassword: fresh(),
    logHashKey: fresh(),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
