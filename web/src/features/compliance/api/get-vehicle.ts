// The vehicle for the verdict banner. A ComplianceRecord has no vehicle, so it comes from
// the insurance check, under the insurance feature's query key: both views share one
// cached answer (and one request against the rate limit) without importing each other.
import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  InsuranceRecordSchema,
  paths,
  type InsuranceRecord,
} from "@vics/shared";
import { apiGet } from "../../../lib/api-client.ts";

export function getVehicleRecord(
  registration: string,
  options: { signal?: AbortSignal } = {},
): Promise<InsuranceRecord> {
  return apiGet(paths.insurance(registration), InsuranceRecordSchema, options);
}

export function vehicleRecordQueryOptions(registration: string) {
  return queryOptions({
    queryKey: ["insurance", registration],
    queryFn: ({ signal }) => getVehicleRecord(registration, { signal }),
  });
}

/**
 * Asked for only once the verdict has arrived (`enabled`): a vehicle that is not found,
 * or a rate limit that is used up, then costs no second request. A failure here never
 * hides the verdict.
 */
export function useVehicleRecord(registration: string, enabled: boolean) {
  return useQuery({ ...vehicleRecordQueryOptions(registration), enabled });
}
