// The audit log's pages (admins only), parsed with the shared contract, and its CSV download.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { AUDIT_CSV_CUT_OFF, AuditPageSchema } from "@vics/shared";
import { apiGet, apiGetFile } from "../../../lib/api-client.ts";
import {
  auditCsvPath,
  auditPath,
  type AuditFilters,
} from "../lib/audit-filters.ts";

export function auditQueryOptions(filters: AuditFilters) {
  return queryOptions({
    queryKey: ["admin", "audit", filters],
    queryFn: ({ signal }) =>
      apiGet(auditPath(filters), AuditPageSchema, { signal }),
    // The table stays while the next page loads, instead of a blank moment.
    placeholderData: keepPreviousData,
    // A log grows: a page asked for again is asked of the proxy again.
    staleTime: 0,
  });
}

/** The name the proxy gives the file too (its Content-Disposition). */
export const AUDIT_CSV_NAME = "vics-audit.csv";

/** Every event the filters find, as the proxy's CSV (not one page). */
export function fetchAuditCsv(filters: AuditFilters): Promise<Blob> {
  return apiGetFile(auditCsvPath(filters), "text/csv");
}

/**
 * Whether the proxy cut the CSV off at its cap: its last row then begins with
 * AUDIT_CSV_CUT_OFF. Only the file's tail is read, however large the file.
 */
export async function csvWasCutOff(file: Blob): Promise<boolean> {
  const tail = await file.slice(Math.max(0, file.size - 1024)).text();
  const lastRow = tail.trimEnd().split(/\r?\n/).at(-1) ?? "";
  return lastRow.replace(/^"/, "").startsWith(AUDIT_CSV_CUT_OFF);
}
