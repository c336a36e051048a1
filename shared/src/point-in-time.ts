// Point-in-time answers (docs/decisions/041-point-in-time-answers.md): `date` is the UK day the
// checks are judged on, `asKnownAt` the instant whose knowledge answers. Both are optional
// extensions: on the single checks as query parameters, on the bulk checks as body members.
import { z } from "zod";

export const POINT_IN_TIME_WORDS = {
  date: (value: string) =>
    `date must be a calendar date written YYYY-MM-DD, like 2026-11-24, not "${value}"`,
  asKnownAt: (value: string) =>
    `asKnownAt must be an instant with its offset, like 2026-11-24T06:00:00Z, not "${value}"`,
} as const;

/** A real calendar date, YYYY-MM-DD (2026-02-30 is refused). */
export const AsOfDateSchema = z.iso
  .date({ error: (issue) => POINT_IN_TIME_WORDS.date(String(issue.input)) })
  .describe(
    "Extension: the UK calendar date to judge the checks on, YYYY-MM-DD; default today (or the UK date of asKnownAt). From the first day VICS's records cover to today.",
  );

/** An ISO 8601 instant with its offset (Z or ±hh:mm). */
export const AsKnownAtSchema = z.iso
  .datetime({
    offset: true,
    error: (issue) => POINT_IN_TIME_WORDS.asKnownAt(String(issue.input)),
  })
  .describe(
    "Extension: answer as VICS knew the facts at this instant (ISO 8601 with its offset); default now. From when VICS first held data to now.",
  );

/** What a client may ask, in a query string or a bulk body. */
export const PointInTimeSchema = z.object({
  date: AsOfDateSchema.optional(),
  asKnownAt: AsKnownAtSchema.optional(),
});
export type PointInTime = z.infer<typeof PointInTimeSchema>;

/** Read from a query string or body: the first problem, in words, or the point asked. */
export function readPointInTime(
  input: Record<string, unknown>,
): { ok: true; asked: PointInTime } | { ok: false; detail: string } {
  const result = PointInTimeSchema.safeParse({
    date: input.date,
    asKnownAt: input.asKnownAt,
  });
  if (result.success) return { ok: true, asked: result.data };
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? "date");
  return {
    ok: false,
    detail:
      typeof input[field] === "string"
        ? (issue?.message ?? "")
        : `${field} must be a string`,
  };
}

/** On an answer to `date` or `asKnownAt`: the day judged and the knowledge used. */
export const AsOfSchema = z
  .object({
    date: z.iso.date().describe("The UK date the checks were judged on"),
    knownAt: z.iso
      .datetime()
      .describe("The instant whose knowledge answered (UTC)"),
  })
  .meta({
    id: "AsOf",
    description:
      "Extension, only on an answer to date or asKnownAt: which day and which knowledge it answers for.",
  });
export type AsOf = z.infer<typeof AsOfSchema>;

/** How fresh each source an answer was made from is. */
export const DataAsOfSchema = z
  .object({
    insurance: z.iso.datetime().optional(),
    mot: z.iso.datetime().optional(),
    tax: z.iso.datetime().optional(),
    fines: z.iso.datetime().optional(),
  })
  .meta({
    id: "DataAsOf",
    description:
      "Extension: for each source the answer was made from, when its data was last refreshed from the source (UTC). An insurance answer names insurance; a compliance answer all four.",
  });
export type DataAsOf = z.infer<typeof DataAsOfSchema>;

/** Insurers have this many days to put a policy on the record (14 for fleets, 7 otherwise). */
export const POLICY_RECORD_GRACE_DAYS = 14;
