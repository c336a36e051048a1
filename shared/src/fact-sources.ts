import { z } from "zod";

/**
 * Where a component's fact came from when a live register gave it (docs/sources.md): DVLA's
 * Vehicle Enquiry Service or DVSA's MOT History. A component not named came from VICS's own
 * records (the seeding or an import) and is as fresh as the answer's `dataAsOf` says.
 */
export const LIVE_SOURCES = ["dvla-ves", "dvsa-mot-history"] as const;
export type LiveSourceName = (typeof LIVE_SOURCES)[number];

/**
 * Each register's short name, the one answers' "as of" lines, exports and problems use: its
 * agency. The admins' sources page gives the long names ("DVLA Vehicle Enquiry Service",
 * "DVSA MOT History API").
 */
export const LIVE_SOURCE_LABELS: Record<LiveSourceName, string> = {
  "dvla-ves": "DVLA",
  "dvsa-mot-history": "DVSA",
};

export const FactSourceSchema = z
  .object({
    source: z.enum(LIVE_SOURCES),
    asOf: z.iso.datetime().describe("When the register answered (UTC)"),
    stale: z
      .boolean()
      .optional()
      .describe(
        "True when the fact is older than its register's freshness window: a refresh failed or is still waiting, and the answer was made from the stored fact",
      ),
  })
  .meta({ id: "FactSource" });
export type FactSource = z.infer<typeof FactSourceSchema>;

export const FactSourcesSchema = z
  .object({
    mot: FactSourceSchema.optional(),
    tax: FactSourceSchema.optional(),
  })
  .meta({
    id: "FactSources",
    description:
      "Extension: for each component whose fact came from a live register, which one and when. Components not named came from VICS's own records, as fresh as dataAsOf says.",
  });
export type FactSources = z.infer<typeof FactSourcesSchema>;
