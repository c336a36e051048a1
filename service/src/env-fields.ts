// The kinds of variable the service's environment holds, as zod fields: env.ts and the live
// sources' part of it (sources/source-settings.ts) read their variables through these.
import { z } from "zod";

// An empty variable means "not set", as in most shells' `VAR= cmd`.
export const unsetIfEmpty = (value: unknown) =>
  value === "" ? undefined : value;

/** A whole number from 1 to what a timer takes, as text to a number. */
const wholeNumberText = z
  .string()
  .regex(/^\d+$/, { error: "must be a whole number" })
  .transform(Number)
  .pipe(
    z
      .int()
      .min(1, { error: "must be at least 1" })
      .max(2_147_483_647, { error: "must be at most 2147483647" }),
  );

/** A whole number from 1 to what a timer takes, or `fallback` when unset. */
export const positiveWholeNumber = (fallback: number) =>
  z.preprocess(unsetIfEmpty, wholeNumberText.default(fallback));

/** As positiveWholeNumber, undefined when unset. */
export const optionalWholeNumber = z.preprocess(
  unsetIfEmpty,
  wholeNumberText.optional(),
);

/** Text, undefined when unset. */
export const optionalText = z.preprocess(unsetIfEmpty, z.string().optional());
