// The fleet engine's three requests (FleetClient, @vics/fleet) through the web app's one API
// client: through the proxy, with the user's session.
import type { FleetClient } from "@vics/fleet";
import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  paths,
} from "@vics/shared";
import {
  apiGetWithRateLimit,
  apiPostWithRateLimit,
} from "../../../lib/api-client.ts";

const keyHeader = (
  idempotencyKey: string | undefined,
): Record<string, string> =>
  idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey };

export const apiFleetClient: FleetClient = {
  bulkInsurance: (registrations, signal, idempotencyKey) =>
    apiPostWithRateLimit(
      paths.bulkInsurance(),
      { registrations },
      BulkResultSchema,
      { signal, headers: keyHeader(idempotencyKey) },
    ),
  bulkCompliance: (registrations, signal, idempotencyKey) =>
    apiPostWithRateLimit(
      paths.bulkCompliance(),
      { registrations },
      BulkComplianceResultSchema,
      { signal, headers: keyHeader(idempotencyKey) },
    ),
  compliance: (registration, signal) =>
    apiGetWithRateLimit(
      paths.compliance(registration),
      ComplianceRecordSchema,
      {
        signal,
      },
    ),
};
