// The seam double's good answer (test support, never imported by the app).
import { normaliseRegistration } from "@vics/shared";
import { complianceRecord, insuranceRecord } from "./fault-answers.ts";

/**
 * What the service would answer, in the contract's shapes, about whatever registration it is
 * asked (even one the service would refuse): the proxy checks answers against the contract
 * (decision 017), so a double's good answer must keep it too.
 */
export async function contractAnswer(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const [, registration = ""] =
    /\/v1\/(?:vehicle|compliance)\/([^/]+)/.exec(path) ?? [];
  const normalised = normaliseRegistration(decodeURIComponent(registration));
  if (path.endsWith("/bulk-insurance") || path.endsWith("/bulk-compliance")) {
    const { registrations } = (await request.clone().json()) as {
      registrations: string[];
    };
    const item = (sent: string): object => {
      const registration = normaliseRegistration(sent);
      if (path.endsWith("/bulk-insurance"))
        return { registration, insured: false };
      const { lastChecked: _, ...record } = complianceRecord(registration);
      return record;
    };
    const results = registrations.map(item);
    return Response.json({
      results,
      processed: results.length,
      successful: results.length,
      failed: 0,
    });
  }
  if (path.endsWith("/insurance"))
    return Response.json(insuranceRecord(normalised));
  if (path.startsWith("/v1/compliance/"))
    return Response.json(complianceRecord(normalised));
  if (path.endsWith("/openapi.json"))
    return Response.json({ openapi: "3.1.0", info: {}, paths: {} });
  return Response.json({ ok: true });
}
