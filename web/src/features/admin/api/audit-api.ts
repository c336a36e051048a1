// The audit log's pages (admins only), parsed with the shared contract.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { AuditPageSchema } from "@vics/shared";
import { apiGet } from "../../../lib/api-client.ts";
import { auditPath, type AuditFilters } from "../lib/audit-filters.ts";

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
