// Test support: answers as the vehicle service gives them, from @vics/fleet's tests, for the
// web's tests that script their own (msw sends a plain Response as it is).
export {
  allChecks,
  bulkBody,
  bulkComplianceBody,
  CHECKS_PASS,
  problemResponse,
  rateLimitHeaders,
  VEHICLE,
  withHeaders,
} from "@vics/fleet/testing/answers";
