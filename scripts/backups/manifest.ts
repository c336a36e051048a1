// manifest.json, beside a backup's files: when it was taken, each file's engine, stores, size
// and SHA-256, and each store's counts at the moment of the backup, which a restore checks.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { STORE_NAMES } from "./stores.ts";

export const MANIFEST = "manifest.json";

const whole = z.number().int().nonnegative();

const ManifestSchema = z.object({
  format: z.literal(1),
  takenAt: z.string(),
  finishedAt: z.string(),
  files: z
    .array(
      z.object({
        name: z.string().regex(/^[a-z]+\.(sqlite|dump)$/),
        engine: z.enum(["sqlite", "postgresql"]),
        stores: z.array(z.enum(STORE_NAMES)).min(1),
        bytes: whole,
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .min(1),
  counts: z.object({
    service: z.object({ vehicles: whole, apiKeys: whole }),
    proxy: z.object({
      users: whole,
      sessions: whole,
      auditEvents: whole,
      lastAuditEvent: z.object({ id: whole, at: z.string() }).nullable(),
      fleets: whole,
      fleetVehicles: whole,
    }),
  }),
  /** What the stores held that the backup leaves out (decision 068), for the record. */
  leftOut: z.object({
    sessions: whole,
    oneTimeLinks: whole,
    oidcLogins: whole,
  }),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type BackupFile = Manifest["files"][number];
export type LeftOut = Manifest["leftOut"];

export function writeManifest(folder: string, manifest: Manifest): void {
  writeFileSync(
    join(folder, MANIFEST),
    `${JSON.stringify(manifest, null, 2)}\n`,
    {
      mode: 0o600,
    },
  );
}

/** The folder's manifest, or an Error saying what is wrong with it. */
export function readManifest(folder: string): Manifest {
  let text: string;
  try {
    text = readFileSync(join(folder, MANIFEST), "utf8");
  } catch (error) {
    if (!existsSync(folder))
      throw new Error(`${folder} does not exist: name a backup's folder.`);
    throw new Error(
      `${folder} holds no readable ${MANIFEST} (${(error as NodeJS.ErrnoException).code ?? String(error)}): it is not a backup made by scripts/backup, or one that did not finish.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${join(folder, MANIFEST)} is not JSON.`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${join(folder, MANIFEST)} is not a manifest this release reads: ${parsed.error.issues
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; ")}`,
    );
  return parsed.data;
}
