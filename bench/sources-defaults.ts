// The live sources' settings as the service takes them from an environment that sets none
// (source-settings.ts: SOURCE_FRESH_HOURS, SOURCE_WAIT_MS, SOURCE_BULK_WAIT_MS), so the bench
// runs at what an operator gets and the table's bulk budget follows the service's default. On
// its own, without the app: report.ts, the table's pure half, takes the bulk wait from here.
import { resolve } from "node:path";
import { z } from "zod";
import {
  SOURCE_ENV_SHAPE,
  sourceSettings,
} from "../service/src/sources/source-settings.ts";

const unset = sourceSettings(
  z.object(SOURCE_ENV_SHAPE).parse({}),
  resolve(import.meta.dirname, ".."),
);
if ("problems" in unset) throw new Error(unset.problems.join("\n"));

/** The register's window: a fact younger than this is used as it is. */
export const FRESH_FOR_MS = unset.settings.freshForMs;
/** How long a single check waits for a refresh (SOURCE_WAIT_MS). */
export const WAIT_MS = unset.settings.waitMs;
/** How long a bulk check waits in all (SOURCE_BULK_WAIT_MS). */
export const BULK_WAIT_MS = unset.settings.bulkWaitMs;
