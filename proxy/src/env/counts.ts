import { MAX_TIMER_MS } from "@vics/shared/server/env-fields";
import { z } from "zod";

/** A count from 1 to what a timer takes, `fallback` when unset. */
export const positiveCount = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_TIMER_MS, { error: `must be at most ${MAX_TIMER_MS}` })
    .default(fallback);
