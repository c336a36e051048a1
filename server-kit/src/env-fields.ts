/**
 * The environment both servers read, as zod fields: the variables they share (one definition,
 * one wording of each problem) and the kinds of variable each builds its own from. Each
 * server's env.ts, the only module of it that reads process.env, spreads SERVER_ENV_SHAPE
 * into its schema.
 */
import { z } from "zod";
import {
  isTrustList,
  parseTrustedProxies,
  TRUSTED_PROXIES_ERROR,
} from "./client-address.ts";
import { DEFAULT_CONNECTION_LIMITS } from "./connection-guard.ts";
import { LOG_LEVELS } from "./logger.ts";
import { isPostgresUrl } from "./postgres-url.ts";
import { isRedisUrl } from "./redis-url.ts";
import { readSecretFile } from "./secret-file.ts";
import { SPAN_BATCH_DEFAULTS, TRACES_SAMPLERS } from "./tracing-settings.ts";

// An empty variable means "not set", as in most shells' `VAR= cmd`.
export const unsetIfEmpty = (value: unknown) =>
  value === "" ? undefined : value;

/** Only what is set: an empty variable means "not set", as unsetIfEmpty says. */
export function presentOnly(
  source: Record<string, string | undefined>,
): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") present[name] = value;
  }
  return present;
}

/** zod's issues as "NAME: problem" lines, the words each server prints before it exits. */
export const issueLines = (
  issues: readonly { path: PropertyKey[]; message: string }[],
) => issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

/** The longest wait a Node timer takes; a longer one runs after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The range of a whole number; `tooLarge` says what the maximum is, in the variable's terms. */
export interface WholeNumberRange {
  /** 0 where 0 means "off" or "none"; default 1. */
  min?: 0 | 1;
  /** Default: what a timer takes. */
  max?: number;
  /** The words for a number above max; default "must be at most <max>". */
  tooLarge?: string;
}

/**
 * A whole number as text, to a number: digits only, so "1e3", " 5 ", "0x10", "1.0" and "-5"
 * are refused, which Number() alone would read. Every number field of both servers is one.
 */
const wholeNumberText = ({
  min = 1,
  max = MAX_TIMER_MS,
  tooLarge = `must be at most ${max}`,
}: WholeNumberRange = {}) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number, at least ${min}` })
    .transform(Number)
    .pipe(
      z
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: tooLarge }),
    );

/** A whole number in `range` (default: 1 to what a timer takes), or `fallback` when unset. */
export const wholeNumber = (fallback: number, range?: WholeNumberRange) =>
  z.preprocess(unsetIfEmpty, wholeNumberText(range).default(fallback));

/** A whole number from 1 to what a timer takes, or `fallback` when unset. */
export const positiveWholeNumber = (fallback: number) => wholeNumber(fallback);

/** A whole number in `range` (default: 1 to what a timer takes), undefined when unset. */
export const wholeNumberOrUnset = (range?: WholeNumberRange) =>
  z.preprocess(unsetIfEmpty, wholeNumberText(range).optional());

/** As positiveWholeNumber, undefined when unset. */
export const optionalWholeNumber = wholeNumberOrUnset();

/** Lower-cased items separated by commas, empty ones dropped. */
export const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean),
);

/** Text, undefined when unset. */
export const optionalText = z.preprocess(unsetIfEmpty, z.string().optional());

/** The address to listen on. */
export const hostField = z.preprocess(
  unsetIfEmpty,
  z.string().trim().min(1).default("127.0.0.1"),
);

/** The port to listen on (0: any free one), `fallback` when unset. */
export const portField = (fallback: number) =>
  wholeNumber(fallback, { min: 0, max: 65535 });

/** A PostgreSQL URL, undefined when unset; `example` ends the problem's words. */
export const postgresUrlField = (example: string) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .refine(isPostgresUrl, {
        error: `must be a postgres:// or postgresql:// URL, ${example}`,
      })
      .optional(),
  );

/** An http:// or https:// URL, undefined when unset (an OTLP endpoint). */
const httpUrlOrUnset = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .trim()
    .refine(
      (value) =>
        URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
      {
        error: "must be an http:// or https:// URL, e.g. http://127.0.0.1:4318",
      },
    )
    .optional(),
);

/** The variables both servers read, with the same meaning and words. */
export const SERVER_ENV_SHAPE = {
  LOG_LEVEL: z.preprocess(
    unsetIfEmpty,
    z
      .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` })
      .default("info"),
  ),
  /** The key of the registration hashes in the logs; unset: a random one per process. */
  LOG_HASH_KEY: z.preprocess(
    unsetIfEmpty,
    z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  ),
  /** Connection limits (connection-guard.ts); per address means per socket peer. */
  MAX_CONNECTIONS: positiveWholeNumber(DEFAULT_CONNECTION_LIMITS.maxTotal),
  MAX_CONNECTIONS_PER_ADDRESS: positiveWholeNumber(
    DEFAULT_CONNECTION_LIMITS.maxPerAddress,
  ),
  IDLE_TIMEOUT_UNDER_PRESSURE_MS: positiveWholeNumber(
    DEFAULT_CONNECTION_LIMITS.idleUnderPressureMs,
  ),
  /** Redis for the rate limits, shared by every replica; unset: in memory, this process only. */
  RATE_LIMIT_URL: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .refine(isRedisUrl, {
        error:
          "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
      })
      .optional(),
  ),
  /**
   * The Prometheus metrics' own listener (metrics.ts), apart from the public one so that nginx's
   * public site never reaches it; unset: no metrics listener. 0: any free port.
   */
  METRICS_PORT: wholeNumberOrUnset({ min: 0, max: 65535 }),
  /** Where the metrics listener listens; loopback unless a scraper on another host needs it. */
  METRICS_HOST: hostField,
  /**
   * OpenTelemetry's own variables (tracing-settings.ts): traces are exported over OTLP/http to
   * the traces endpoint, else to the general one's /v1/traces; neither set: tracing is off.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrlOrUnset,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrlOrUnset,
  /** The name the spans carry; unset: vics-service or vics-proxy. */
  OTEL_SERVICE_NAME: optionalText,
  OTEL_TRACES_SAMPLER: z.preprocess(
    unsetIfEmpty,
    z
      .enum(TRACES_SAMPLERS, {
        error: `must be one of ${TRACES_SAMPLERS.join(", ")}`,
      })
      .default("parentbased_always_on"),
  ),
  /** The traceidratio samplers' ratio, from 0 to 1 (0.1: one trace in ten). */
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, {
        error: "must be a number from 0 to 1, e.g. 0.1",
      })
      .transform(Number)
      .default(1),
  ),
  /**
   * How the spans are batched for export: OpenTelemetry's batch span processor variables, which
   * the SDK's @opentelemetry/sdk-trace does not read itself (only the older sdk-trace-base's
   * shim did), so they are read here and passed on (tracing-settings.ts). Defaults: the
   * specification's.
   */
  OTEL_BSP_SCHEDULE_DELAY: wholeNumber(
    SPAN_BATCH_DEFAULTS.scheduledDelayMillis,
    {
      min: 0,
    },
  ),
  /** 0: no limit, as the specification says (the longest a timer takes). */
  OTEL_BSP_EXPORT_TIMEOUT: wholeNumber(
    SPAN_BATCH_DEFAULTS.exportTimeoutMillis,
    {
      min: 0,
    },
  ).transform((ms) => (ms === 0 ? MAX_TIMER_MS : ms)),
  OTEL_BSP_MAX_QUEUE_SIZE: positiveWholeNumber(
    SPAN_BATCH_DEFAULTS.maxQueueSize,
  ),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: positiveWholeNumber(
    SPAN_BATCH_DEFAULTS.maxExportBatchSize,
  ),
  /** Load balancers whose X-Forwarded-For names the caller: addresses or CIDR ranges; unset: none. */
  TRUSTED_PROXIES: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .default("")
      .transform(parseTrustedProxies)
      .refine(isTrustList, { error: TRUSTED_PROXIES_ERROR }),
  ),
};

/**
 * The problems between two of SERVER_ENV_SHAPE's variables, which zod's per-field parse cannot
 * see (and would skip as a refinement once another field failed): each server tells them beside
 * every other problem. `portField` is the server's PORT field.
 */
export const crossFieldProblems = (
  source: Record<string, string | undefined>,
  portField: z.ZodType<number>,
): string[] => [
  ...metricsPortClash(source, portField),
  ...spanBatchOverQueue(source),
];

/**
 * METRICS_PORT equal to PORT (0 excepted: a free port each) as a problem line, or none: two
 * listeners cannot take one port, and the start would name PORT as the one in use. Read from
 * the variables as given, each parsed as its field parses it (`portField` the server's PORT's),
 * so that it is told beside every other problem; a value its field refuses is that field's
 * problem, not this one.
 */
function metricsPortClash(
  source: Record<string, string | undefined>,
  portField: z.ZodType<number>,
): string[] {
  const port = portField.safeParse(source.PORT);
  const metrics = SERVER_ENV_SHAPE.METRICS_PORT.safeParse(source.METRICS_PORT);
  if (!port.success || !metrics.success) return [];
  return metrics.data !== undefined &&
    metrics.data !== 0 &&
    metrics.data === port.data
    ? [
        `METRICS_PORT: must differ from PORT (both ${port.data}): the metrics listen apart from the public port`,
      ]
    : [];
}

/**
 * A server's settings by its variables' names, as `scripts/config check` shows them: each of
 * `names` (its schema's) as parsed, defaults applied and unset ones undefined. The server then
 * adds what it reads beside its schema and what its start works out.
 */
export function schemaVariables(
  names: readonly string[],
  parsed: object,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const name of names)
    variables[name] = (parsed as Record<string, unknown>)[name];
  return variables;
}

/** What config check shows for a SQLite file's variable while DATABASE_URL is set. */
export const UNUSED_WITH_DATABASE_URL = "(not used: DATABASE_URL is set)";

/**
 * OTEL_BSP_MAX_EXPORT_BATCH_SIZE over OTEL_BSP_MAX_QUEUE_SIZE as a problem line, or none: a
 * batch is taken from the queue, and the specification says it must be no larger (the SDK would
 * shrink it, with a warning at start). Read from the variables as given, as metricsPortClash.
 */
export function spanBatchOverQueue(
  source: Record<string, string | undefined>,
): string[] {
  const batch = SERVER_ENV_SHAPE.OTEL_BSP_MAX_EXPORT_BATCH_SIZE.safeParse(
    source.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
  );
  const queue = SERVER_ENV_SHAPE.OTEL_BSP_MAX_QUEUE_SIZE.safeParse(
    source.OTEL_BSP_MAX_QUEUE_SIZE,
  );
  if (!batch.success || !queue.success || batch.data <= queue.data) return [];
  // Only the queue set, below the batch's default: the operator set no batch size.
  if (unsetIfEmpty(source.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) === undefined)
    return [
      `OTEL_BSP_MAX_QUEUE_SIZE: ${queue.data} is below the default batch of ${batch.data} spans, which is taken from the queue: set OTEL_BSP_MAX_EXPORT_BATCH_SIZE too, at most ${queue.data}`,
    ];
  const over =
    unsetIfEmpty(source.OTEL_BSP_MAX_QUEUE_SIZE) === undefined
      ? `${batch.data} over the default ${queue.data}`
      : `${batch.data} over ${queue.data}`;
  return [
    `OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must be at most OTEL_BSP_MAX_QUEUE_SIZE (${over}): a batch is taken from the queue`,
  ];
}

/**
 * `name`, or the file named by `name`_FILE (for a secret; a relative path resolved against
 * `root`): only one of them may be set. Undefined when neither is; an error never holds the
 * secret.
 */
export function valueOrFile(
  present: Record<string, string | undefined>,
  name: string,
  root: string,
): { value: string; fromFile: boolean } | { error: string } | undefined {
  const value = unsetIfEmpty(present[name]) as string | undefined;
  const file = unsetIfEmpty(present[`${name}_FILE`]) as string | undefined;
  if (value !== undefined && file !== undefined)
    return { error: `set only one of ${name} and ${name}_FILE` };
  if (file !== undefined) {
    const read = readSecretFile(file, `${name}_FILE`, root);
    return "error" in read ? read : { value: read.value, fromFile: true };
  }
  return value === undefined ? undefined : { value, fromFile: false };
}
