// The live sources' part of the service's environment (docs/sources.md). env.ts parses it with
// the rest; this file says what each variable means and turns them into each source's settings,
// reading the secrets from their files. A source is on when its key file is set: off by
// default, so the embedded `npm start` needs no account anywhere.
import { readSecretFile } from "@vics/server-kit/secret-file";
import { z } from "zod";
import {
  optionalText,
  optionalWholeNumber,
  positiveWholeNumber,
  unsetIfEmpty,
} from "@vics/server-kit/env-fields";
import type { IsoDate } from "@vics/shared";
import type { SourceName } from "./source.ts";

/** An http(s) URL without its trailing slash, which the adapters then need not strip. */
const url = z
  .url({
    protocol: /^https?$/,
    error: "must be an http:// or https:// URL",
  })
  .transform((value) => value.replace(/\/+$/, ""));
const httpUrl = () => z.preprocess(unsetIfEmpty, url.optional());
const httpUrlOr = (fallback: string) =>
  z.preprocess(unsetIfEmpty, url.default(fallback));

/** The registers' production addresses; their test environments' are in docs/sources.md. */
export const VES_PRODUCTION_URL =
  "https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry";
const MOT_PRODUCTION_URL = "https://history.mot.api.gov.uk";
export const MOT_DEFAULT_SCOPE = "https://tapi.dvsa.gov.uk/.default";

/** What the three timing variables give when unset; the bench runs at these too. */
export const SOURCE_DEFAULTS = {
  /** SOURCE_FRESH_HOURS */
  freshHours: 24,
  /** SOURCE_WAIT_MS */
  waitMs: 2000,
  /** SOURCE_BULK_WAIT_MS */
  bulkWaitMs: 5000,
} as const;

export const SOURCE_ENV_SHAPE = {
  /** A file holding the DVLA Vehicle Enquiry Service key; set, the source is on. */
  DVLA_VES_API_KEY_FILE: optionalText,
  DVLA_VES_BASE_URL: httpUrlOr(VES_PRODUCTION_URL),
  DVLA_VES_PER_SECOND: optionalWholeNumber,
  DVLA_VES_BURST: optionalWholeNumber,
  DVLA_VES_PER_DAY: optionalWholeNumber,
  /** A file holding the DVSA MOT History API key; set, the source is on (with the three below). */
  DVSA_MOT_API_KEY_FILE: optionalText,
  DVSA_MOT_CLIENT_ID: optionalText,
  DVSA_MOT_CLIENT_SECRET_FILE: optionalText,
  /** When the client secret expires (DVSA's last two years), so the admin is warned ahead. */
  DVSA_MOT_CLIENT_SECRET_EXPIRES: z.preprocess(
    unsetIfEmpty,
    z.iso.date({ error: "must be a date, YYYY-MM-DD" }).optional(),
  ),
  DVSA_MOT_TOKEN_URL: httpUrl(),
  DVSA_MOT_SCOPE: z.preprocess(
    unsetIfEmpty,
    z.string().default(MOT_DEFAULT_SCOPE),
  ),
  DVSA_MOT_BASE_URL: httpUrlOr(MOT_PRODUCTION_URL),
  DVSA_MOT_PER_SECOND: optionalWholeNumber,
  DVSA_MOT_BURST: optionalWholeNumber,
  DVSA_MOT_PER_DAY: optionalWholeNumber,
  /** A stored fact younger than this many hours is used without asking its source. */
  SOURCE_FRESH_HOURS: positiveWholeNumber(SOURCE_DEFAULTS.freshHours),
  /** How long a single check waits for a refresh before answering from the stored fact. */
  SOURCE_WAIT_MS: positiveWholeNumber(SOURCE_DEFAULTS.waitMs),
  /** How long a bulk check waits in all; the rest refresh in the background. */
  SOURCE_BULK_WAIT_MS: positiveWholeNumber(SOURCE_DEFAULTS.bulkWaitMs),
};

export type SourceEnv = z.infer<z.ZodObject<typeof SOURCE_ENV_SHAPE>>;

export interface PaceSettings {
  perSecond: number;
  burst: number;
  perDay: number;
}

/**
 * The MOT History API's limits as its clients quote DVSA (15 requests a second on average,
 * bursts of 10, 500,000 a day): DVSA's pages read for docs/sources.md do not state them. DVLA
 * publishes none for VES: these are VICS's own, cautious choice. Here, not in the pacer, so that
 * reading the environment (env.ts shows them) loads nothing of the pacer's.
 */
export const DEFAULT_PACE: Record<SourceName, PaceSettings> = {
  "dvsa-mot-history": { perSecond: 15, burst: 10, perDay: 500_000 },
  "dvla-ves": { perSecond: 10, burst: 10, perDay: 250_000 },
};

/** Requests a second, burst and a day; unset members take the source's defaults. */
export interface PaceOverrides {
  perSecond?: number;
  burst?: number;
  perDay?: number;
}

export interface VesSettings {
  baseUrl: string;
  apiKey: string;
  pace: PaceOverrides;
}

export interface MotSettings {
  baseUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  secretExpires?: IsoDate;
  tokenUrl: string;
  scope: string;
  pace: PaceOverrides;
}

export interface SourceSettings {
  ves?: VesSettings;
  mot?: MotSettings;
  freshForMs: number;
  waitMs: number;
  bulkWaitMs: number;
}

const pace = (
  perSecond: number | undefined,
  burst: number | undefined,
  perDay: number | undefined,
): PaceOverrides => ({
  ...(perSecond !== undefined && { perSecond }),
  ...(burst !== undefined && { burst }),
  ...(perDay !== undefined && { perDay }),
});

const MOT_NEEDS = [
  "DVSA_MOT_API_KEY_FILE",
  "DVSA_MOT_CLIENT_ID",
  "DVSA_MOT_CLIENT_SECRET_FILE",
  "DVSA_MOT_TOKEN_URL",
] as const;

/** Each source's settings from the parsed variables, its secrets read from their files. */
export function sourceSettings(
  env: SourceEnv,
  root: string,
): { settings: SourceSettings } | { problems: string[] } {
  const problems: string[] = [];
  const secret = (file: string, variable: string) => {
    const read = readSecretFile(file, variable, root);
    if ("error" in read) {
      problems.push(read.error);
      return "";
    }
    return read.value;
  };
  const settings: SourceSettings = {
    freshForMs: env.SOURCE_FRESH_HOURS * 3_600_000,
    waitMs: env.SOURCE_WAIT_MS,
    bulkWaitMs: env.SOURCE_BULK_WAIT_MS,
  };
  if (env.DVLA_VES_API_KEY_FILE !== undefined)
    settings.ves = {
      baseUrl: env.DVLA_VES_BASE_URL,
      apiKey: secret(env.DVLA_VES_API_KEY_FILE, "DVLA_VES_API_KEY_FILE"),
      pace: pace(
        env.DVLA_VES_PER_SECOND,
        env.DVLA_VES_BURST,
        env.DVLA_VES_PER_DAY,
      ),
    };
  const motSet = MOT_NEEDS.filter((name) => env[name] !== undefined);
  if (motSet.length > 0 && motSet.length < MOT_NEEDS.length)
    problems.push(
      `the DVSA MOT History source needs all of ${MOT_NEEDS.join(", ")}; missing: ${MOT_NEEDS.filter((name) => env[name] === undefined).join(", ")}`,
    );
  else if (motSet.length === MOT_NEEDS.length)
    settings.mot = {
      baseUrl: env.DVSA_MOT_BASE_URL,
      apiKey: secret(env.DVSA_MOT_API_KEY_FILE!, "DVSA_MOT_API_KEY_FILE"),
      clientId: env.DVSA_MOT_CLIENT_ID!,
      clientSecret: secret(
        env.DVSA_MOT_CLIENT_SECRET_FILE!,
        "DVSA_MOT_CLIENT_SECRET_FILE",
      ),
      ...(env.DVSA_MOT_CLIENT_SECRET_EXPIRES !== undefined && {
        secretExpires: env.DVSA_MOT_CLIENT_SECRET_EXPIRES,
      }),
      tokenUrl: env.DVSA_MOT_TOKEN_URL!,
      scope: env.DVSA_MOT_SCOPE,
      pace: pace(
        env.DVSA_MOT_PER_SECOND,
        env.DVSA_MOT_BURST,
        env.DVSA_MOT_PER_DAY,
      ),
    };
  return problems.length > 0 ? { problems } : { settings };
}
