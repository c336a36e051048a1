// The single insurance check: its fetcher, query options and hook.
import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  InsuranceRecordSchema,
  paths,
  type InsuranceRecord,
} from "@vics/shared";
import { apiGet } from "../../../lib/api-client.ts";

export function getInsurance(
  registration: string,
  options: { signal?: AbortSignal } = {},
): Promise<InsuranceRecord> {
  return apiGet(paths.insurance(registration), InsuranceRecordSchema, options);
}

export function insuranceQueryOptions(registration: string) {
  return queryOptions({
    queryKey: ["insurance", registration],
    queryFn: ({ signal }) => getInsurance(registration, { signal }),
  });
}

export function useInsurance(registration: string) {
  return useQuery(insuranceQueryOptions(registration));
}
