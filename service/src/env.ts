// The only file that reads process.env.
import { resolve } from "node:path";
import { z } from "zod";
import {
  hostField,
  issueLines,
  crossFieldProblems,
  portField,
  positiveWholeNumber,
  postgresUrlField,
  schemaVariables,
  SERVER_ENV_SHAPE,
  UNUSED_WITH_DATABASE_URL,
  unsetIfEmpty,
} from "@vics/server-kit/env-fields";
import {
  DEFAULT_PACE,
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
  | {
      ok: true;
      env: Env;
      /** The same settings by their variables' names, as `scripts/config check` shows them. */
      variables: Record<string, unknown>;
    }
  | { ok: false; problems: string[] };

type Parsed = z.infer<typeof EnvSchema>;

/** The name the service's spans carry unless OTEL_SERVICE_NAME says. */
export const SERVICE_TRACE_NAME = "vics-service";

/** The registers' key files, which the service reads relative to REPO_ROOT. */
const KEY_FILES = [
  "DVLA_VES_API_KEY_FILE",
  "DVSA_MOT_API_KEY_FILE",
  "DVSA_MOT_CLIENT_SECRET_FILE",
] as const;

/**
 * Every variable the service reads, set or not, by its name and as parsed (defaults applied,
 * the registers' paces too; a key file by its path, as the service resolves it, never its
 * contents); what an unset one means where the start works it out, and which database's
 * variables go unused.
 */
function variablesInEffect(data: Parsed): Record<string, unknown> {
  const variables = schemaVariables(Object.keys(EnvSchema.shape), data);
  const postgres = data.DATABASE_URL !== undefined;
  if (postgres) variables.DATABASE_PATH = UNUSED_WITH_DATABASE_URL;
  else variables.DATABASE_POOL_SIZE = "(not used: DATABASE_URL is unset)";
  variables.SEED_SYNTHETIC_FLEET = data.SEED_SYNTHETIC_FLEET ?? !postgres;
  variables.SANDBOX ??=
    "(unset: on when the database holds the synthetic fleet)";
  variables.OTEL_SERVICE_NAME ??= SERVICE_TRACE_NAME;
  for (const name of KEY_FILES)
    if (data[name] !== undefined)
      variables[name] = resolve(REPO_ROOT, data[name]);
  const paces = [
    ["DVLA_VES", DEFAULT_PACE["dvla-ves"]],
    ["DVSA_MOT", DEFAULT_PACE["dvsa-mot-history"]],
  ] as const;
  for (const [prefix, pace] of paces) {
    variables[`${prefix}_PER_SECOND`] ??= pace.perSecond;
    variables[`${prefix}_BURST`] ??= pace.burst;
    variables[`${prefix}_PER_DAY`] ??= pace.perDay;
  }
  return variables;
}

export function parseEnv(
  source: Record<string, string | undefined>,
): EnvResult {
  const parsed = EnvSchema.safeParse(source);
  const clash = crossFieldProblems(source, EnvSchema.shape.PORT);
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
    return {
      ok: true,
      env: { ...rest, sources: sources.settings },
      variables: variablesInEffect(parsed.data),
    };
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
