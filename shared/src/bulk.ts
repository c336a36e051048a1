import { z } from "zod";
import { PolicySchema } from "./policy.ts";
import { VehicleSchema } from "./vehicle.ts";
import {
  type AsOf,
  AsOfSchema,
  AsKnownAtSchema,
  AsOfDateSchema,
  type DataAsOf,
  DataAsOfSchema,
} from "./point-in-time.ts";

export const BULK_MAX_REGISTRATIONS = 1000;
export const BULK_MAX_BODY_BYTES = 64 * 1024;

export const BULK_ERRORS = {
  notFound: "Vehicle not found",
  invalid: "Invalid registration format",
  unavailable: "Temporarily unavailable, retry later",
} as const;

export const BulkRequestSchema = z
  .object({
    registrations: z
      .array(z.string({ error: "Every registration must be a string" }), {
        error: '"registrations" must be an array of strings',
      })
      .min(1, { error: '"registrations" must not be empty' })
      .max(BULK_MAX_REGISTRATIONS, {
        error: `"registrations" must hold at most ${BULK_MAX_REGISTRATIONS} items`,
      }),
    date: AsOfDateSchema.optional(),
    asKnownAt: AsKnownAtSchema.optional(),
  })
  .meta({ id: "BulkRequest" });

export type BulkRequest = z.infer<typeof BulkRequestSchema>;

/**
 * Decision 021: the single check's "most recent lapsed policy" for a bulk item that is not
 * insured, under its own name so that `policy` keeps meaning "insured" for every v1 client.
 */
export const LastPolicySchema = PolicySchema.nullable().describe(
  "Extension, not in the interface document (clients must not depend on it): only on a successful item that is not insured. The most recent policy that has ended, as the single check's `policy` shows it, or null when the vehicle has no policy that has ended (never insured, or cover that has not started yet). Never on an insured item: `policy` is.",
);

export const BulkItemSchema = z
  .object({
    registration: z
      .string()
      .describe("Normalised; as submitted when it is invalid"),
    insured: z.boolean().describe("False for a failed item"),
    policy: PolicySchema.optional().describe(
      "Only on an insured item: its presence means insured",
    ),
    lastPolicy: LastPolicySchema.optional(),
    vehicle: VehicleSchema.optional().describe(
      "Extension: on every successful item; clients must not depend on it",
    ),
    error: z.string().optional().describe("Only on a failed item"),
  })
  .meta({ id: "BulkItem" });

export type BulkItem = z.infer<typeof BulkItemSchema>;

/** The counts every bulk answer carries: one result per submitted registration. */
export function bulkCounts<T extends z.ZodType>(item: T) {
  return z
    .object({
      results: z.array(item),
      processed: z
        .number()
        .int()
        .min(0)
        .describe(
          "Number of registrations processed; equals the number submitted",
        ),
      successful: z.number().int().min(0),
      failed: z
        .number()
        .int()
        .min(0)
        .describe("processed = successful + failed"),
      dataAsOf: DataAsOfSchema.optional(),
      asOf: AsOfSchema.optional(),
    })
    .refine(
      (result) =>
        result.processed === result.results.length &&
        result.processed === result.successful + result.failed,
      {
        error:
          "processed must equal the number of results and successful + failed",
      },
    );
}

/**
 * A bulk answer's items with their counts: processed = results = successful + failed, a
 * failed item being one with an `error`. The service answers with it; test upstreams too.
 */
export function bulkAnswer<Item extends { error?: string }>(
  results: Item[],
  about: { dataAsOf?: DataAsOf; asOf?: AsOf } = {},
) {
  const failed = results.filter((item) => item.error !== undefined).length;
  return {
    results,
    processed: results.length,
    successful: results.length - failed,
    failed,
    ...about,
  };
}

export const BulkResultSchema = bulkCounts(BulkItemSchema).meta({
  id: "BulkResult",
});

export type BulkResult = z.infer<typeof BulkResultSchema>;
