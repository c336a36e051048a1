// The single insurance check: its fetcher, query options and hook. Shared, not a feature's own:
// the insurance view shows it, and the compliance dashboard takes its vehicle from it. One
// query key means both views share one cached answer (and one request against the rate limit).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { paths, type InsuranceRecord } from "@vics/shared";
import { apiGetWithRateLimit } from "./api-client.ts";
import { insuranceRecordSchema } from "./lazy-schemas.ts";

/** The record, with the reference (request id) a printed record of the check quotes. */
export type InsuranceAnswer = InsuranceRecord & { reference?: string };

/** `date`: the UK day to judge it on ("YYYY-MM-DD"), for "Check on a date"; else today. */
export async function getInsurance(
  registration: string,
  options: { signal?: AbortSignal; date?: string } = {},
): Promise<InsuranceAnswer> {
  const path = paths.insurance(registration);
  const { data, requestId } = await apiGetWithRateLimit(
    options.date === undefined
      ? path
      : `${path}?${new URLSearchParams({ date: options.date }).toString()}`,
    insuranceRecordSchema,
    { signal: options.signal },
  );
  return { ...data, reference: requestId };
}

export function insuranceQueryOptions(registration: string, date?: string) {
  return queryOptions({
    queryKey:
      date === undefined
        ? ["insurance", registration]
        : ["insurance", registration, { date }],
    queryFn: ({ signal }) => getInsurance(registration, { signal, date }),
  });
}

/** `enabled: false` waits, e.g. until another answer shows the vehicle is worth asking about. */
export function useInsurance(
  registration: string,
  enabled = true,
  date?: string,
) {
  return useQuery({ ...insuranceQueryOptions(registration, date), enabled });
}
