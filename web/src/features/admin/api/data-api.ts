// The data page's answers (admins only): the sources' freshness and the operator's imports,
// parsed with the shared contract, and an import's refused rows as the proxy's CSV.
import { queryOptions } from "@tanstack/react-query";
import {
  ADMIN_DATA_PATHS,
  DataSourcesSchema,
  ImportListSchema,
} from "@vics/shared/data-admin";
import { apiGet, apiGetFile } from "../../../lib/api-client.ts";

export function dataSourcesQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "data", "sources"],
    queryFn: ({ signal }) =>
      apiGet(ADMIN_DATA_PATHS.sources, DataSourcesSchema, { signal }),
    staleTime: 0,
  });
}

export function importsQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "data", "imports"],
    queryFn: ({ signal }) =>
      apiGet(ADMIN_DATA_PATHS.imports, ImportListSchema, { signal }),
    staleTime: 0,
  });
}

/** The name the proxy gives the file too (its Content-Disposition). */
export const rejectsFileName = (importId: number) =>
  `import-${importId}-rejects.csv`;

export function fetchRejectsCsv(importId: number): Promise<Blob> {
  return apiGetFile(ADMIN_DATA_PATHS.rejects(importId), "text/csv");
}
