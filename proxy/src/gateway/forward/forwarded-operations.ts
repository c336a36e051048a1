import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  ROUTE_PATTERNS,
  paths,
} from "@vics/shared";
import { bulkBodyChecks } from "@vics/server-kit/bulk-body";
import { proxyCopyOfOpenApi } from "../openapi/openapi-copy.ts";
import { bulkAnswer, singleAnswer } from "../upstream/upstream-contract.ts";
import { type ForwardedOperation, forwardedOperation } from "./operation.ts";

/** A bulk check's JSON body: up to 64 KiB, checked as the service checks it (decision 014). */
const BULK_BODY = bulkBodyChecks;

/** A single check costs one look-up; a bulk check one a registration (at least one). */
const perRegistration = (registrations: readonly string[]) =>
  Math.max(1, registrations.length);

/**
 * Only these reach the service under /api/v1, and the proxy's copy of the OpenAPI document
 * lists exactly these. Adding a check is one entry here, its answer's schema from
 * @vics/shared, and its name in CHECK_ACTIONS.
 */
export const FORWARDED_OPERATIONS: readonly ForwardedOperation[] = [
  forwardedOperation({
    method: "get",
    route: ROUTE_PATTERNS.insurance,
    upstreamPath: (registration) => paths.insurance(registration),
    role: "staff",
    answer: singleAnswer(InsuranceRecordSchema),
    check: {
      action: "check.insurance",
      lookups: perRegistration,
      verdict: (answer) =>
        answer.insured === true ? "insured" : "not-insured",
    },
  }),
  forwardedOperation({
    method: "post",
    route: ROUTE_PATTERNS.bulkInsurance,
    upstreamPath: () => paths.bulkInsurance(),
    role: "fleet",
    body: BULK_BODY,
    answer: bulkAnswer(BulkResultSchema),
    check: { action: "check.bulk-insurance", lookups: perRegistration },
  }),
  forwardedOperation({
    method: "post",
    route: ROUTE_PATTERNS.bulkCompliance,
    upstreamPath: () => paths.bulkCompliance(),
    role: "fleet",
    body: BULK_BODY,
    answer: bulkAnswer(BulkComplianceResultSchema),
    check: { action: "check.bulk-compliance", lookups: perRegistration },
  }),
  forwardedOperation({
    method: "get",
    route: ROUTE_PATTERNS.compliance,
    upstreamPath: (registration) => paths.compliance(registration),
    role: "staff",
    answer: singleAnswer(ComplianceRecordSchema),
    check: {
      action: "check.compliance",
      lookups: perRegistration,
      verdict: (answer) =>
        answer.compliant === true ? "compliant" : "not-compliant",
    },
  }),
  // Not a check: neither counted nor audited. Its copy lists the operations above.
  {
    method: "get",
    route: ROUTE_PATTERNS.openapi,
    upstreamPath: () => paths.openapi(),
    role: "staff",
    rewrite: (document) => proxyCopyOfOpenApi(document, FORWARDED_OPERATIONS),
  },
];
