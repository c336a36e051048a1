// The only file that reads process.env.
import { resolve } from "node:path";
import { z } from "zod";
import {
  hostField,
  issueLines,
  metricsPortClash,
  portField,
  positiveWholeNumber,
  postgresUrlField,
  SERVER_ENV_SHAPE,
  unsetIfEmpty,
} from "@vics/server-kit/env-fields";
import {
  SOURCE_ENV_SHAPE,
  type SourceSettings,
  sourceSettings,
} from "./sources/source-settings.ts";

/** Relative paths (DATABASE_PATH) resolve against the repository root, whatever the cwd. */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");

const EnvSchema = z.object({
  HOST: hostField,
  PORT: portField(3001),
  DATABASE_PATH: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .default("data/vics.sqlite")
      .transform((path) =>
        path === ":memory:" ? path : resolve(REPO_ROOT, path),
      ),
  ),
  /**
   * PostgreSQL, one database for every replica; unset: the SQLite file at DATABASE_PATH, this
   * process's own. When it is set, DATABASE_PATH is not used.
   */
  DATABASE_URL: postgresUrlField("e.g. postgres://vics@127.0.0.1:5432/vics"),
  /** Connections each process may hold to DATABASE_URL. */
  DATABASE_POOL_SIZE: positiveWholeNumber(10),
  /**
   * Whether a start seeds the synthetic fleet (the sandbox's vehicles) into a database that
   * holds none: "true" or "false". Unset: yes with SQLite, so a first `npm start` has its
   * fleet as before; no with DATABASE_URL, since a shared database is filled on purpose (set
   * it to "true", or run `scripts/db seed`). Either way a database with vehicles is left alone.
   */
  SEED_SYNTHETIC_FLEET: z.preprocess(
    unsetIfEmpty,
    z
      .enum(["true", "false"], { error: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .optional(),
  ),
  ...SERVER_ENV_SHAPE,
  /** Unset: on exactly when the database holds the seeded synthetic fleet. */
  SANDBOX: z.preprocess(
    unsetIfEmpty,
    z
      .enum(["true", "false"], { error: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .optional(),
  ),
  /** The live sources (docs/sources.md): off unless their key files are set. */
  ...SOURCE_ENV_SHAPE,
});

export type Env = Omit<
  z.infer<typeof EnvSchema>,
  keyof typeof SOURCE_ENV_SHAPE
> & { sources: SourceSettings };

export type EnvResult =
  { ok: true; env: Env } | { ok: false; problems: string[] };

export function parseEnv(
  source: Record<string, string | undefined>,
): EnvResult {
  const parsed = EnvSchema.safeParse(source);
  const clash = metricsPortClash(source, EnvSchema.shape.PORT);
  if (parsed.success) {
    const sources = sourceSettings(parsed.data, REPO_ROOT);
    const problems = [
      ...clash,
      ...("problems" in sources ? sources.problems : []),
    ];
    if (problems.length > 0 || "problems" in sources)
      return { ok: false, problems };
    // The sources' variables are read once, into `sources`: nothing else sees them.
    const rest = Object.fromEntries(
      Object.entries(parsed.data).filter(
        ([name]) => !(name in SOURCE_ENV_SHAPE),
      ),
    ) as Omit<Env, "sources">;
    return { ok: true, env: { ...rest, sources: sources.settings } };
  }
  return {
    ok: false,
    problems: [...issueLines(parsed.error.issues), ...clash],
  };
}

/** Parses process.env once; prints every bad variable and exits 1 on error. */
export function loadEnv(): Env {
  const result = parseEnv(process.env);
  if (result.ok) return result.env;
  console.error(
    `Invalid environment for the VICS service:\n  - ${result.problems.join("\n  - ")}`,
  );
  process.exit(1);
}
