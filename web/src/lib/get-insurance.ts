// The single insurance check: its fetcher, query options and hook. Shared, not a feature's own:
// the insurance view shows it, and the compliance dashboard takes its vehicle from it. One
// query key means both views share one cached answer (and one request against the rate limit).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { paths, type InsuranceRecord } from "@vics/shared";
import { apiGet } from "./api-client.ts";
import { insuranceRecordSchema } from "./lazy-schemas.ts";

export function getInsurance(
  registration: string,
  options: { signal?: AbortSignal } = {},
): Promise<InsuranceRecord> {
  return apiGet(paths.insurance(registration), insuranceRecordSchema, options);
}

export function insuranceQueryOptions(registration: string) {
  return queryOptions({
    queryKey: ["insurance", registration],
    queryFn: ({ signal }) => getInsurance(registration, { signal }),
  });
}

/** `enabled: false` waits, e.g. until another answer shows the vehicle is worth asking about. */
export function useInsurance(registration: string, enabled = true) {
  return useQuery({ ...insuranceQueryOptions(registration), enabled });
}
