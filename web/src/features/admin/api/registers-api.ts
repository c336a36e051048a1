// The sources page's answer (admins only): each live register's state, parsed with the shared
// contract, asked again every 30 seconds while the page is shown.
import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  ADMIN_REGISTERS_PATH,
  type Registers,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { apiGet } from "../../../lib/api-client.ts";

/** How often an open sources page asks again: a key revoked shows within half a minute. */
export const REGISTERS_REFRESH_MS = 30_000;

export function getRegisters(
  options: { signal?: AbortSignal } = {},
): Promise<Registers> {
  return apiGet(ADMIN_REGISTERS_PATH, RegistersSchema, options);
}

export function registersQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "registers"],
    queryFn: ({ signal }) => getRegisters({ signal }),
    // Only while the page is shown and its tab in front (TanStack's default).
    refetchInterval: REGISTERS_REFRESH_MS,
    staleTime: 0,
  });
}

export function useRegisters() {
  return useQuery(registersQueryOptions());
}
