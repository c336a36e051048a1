// The compliance check: its fetcher, query options and hook.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { paths, type ComplianceRecord } from "@vics/shared";
import { apiGet } from "../../../lib/api-client.ts";
import { complianceRecordSchema } from "../../../lib/lazy-schemas.ts";

export function getCompliance(
  registration: string,
  options: { signal?: AbortSignal } = {},
): Promise<ComplianceRecord> {
  return apiGet(
    paths.compliance(registration),
    complianceRecordSchema,
    options,
  );
}

export function complianceQueryOptions(registration: string) {
  return queryOptions({
    queryKey: ["compliance", registration],
    queryFn: ({ signal }) => getCompliance(registration, { signal }),
  });
}

export function useCompliance(registration: string) {
  return useQuery(complianceQueryOptions(registration));
}
