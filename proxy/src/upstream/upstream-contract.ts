/**
 * Whether an upstream answer speaks the contract, so that the browser only ever gets one it
 * can read or the proxy's own problem (decision 017). A 200 of the four checks must parse
 * with the shared schema and be about the vehicles asked; any other status must carry a
 * problem document.
 */
import type { z } from "zod";
import {
  DATA_PATHS,
  DataSourcesSchema,
  ImportListSchema,
  ImportRejectsSchema,
} from "@vics/shared/data-admin";
import { REGISTERS_PATH, RegistersSchema } from "@vics/shared/registers-admin";
import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  ProblemSchema,
  ROUTE_PATTERNS,
  normaliseRegistration,
  type PointInTime,
  type Problem,
} from "@vics/shared";

/**
 * What was asked: the upstream path, and the registrations the answer must be about (the
 * path's, normalised; or the bulk body's, as validated and sent).
 */
export interface Asked {
  path: string;
  /** The point in time asked (decision 041): validated here, sent as the query string. */
  pointInTime?: PointInTime;
  registrations?: readonly string[];
}

interface AnswerContract {
  route: RegExp;
  schema: z.ZodType;
  /** Undefined when the parsed answer is about what was asked; else why not. */
  matches(answer: never, registrations: readonly string[]): string | undefined;
}

const routePattern = (route: string) =>
  new RegExp(`^${route.replace(/:\w+/g, "[^/]+")}$`);

function single(route: string, schema: z.ZodType): AnswerContract {
  return {
    route: routePattern(route),
    schema,
    matches: (answer: { registration: string }, [asked]) =>
      answer.registration === asked
        ? undefined
        : "the answer is about another registration",
  };
}

function bulk(route: string, schema: z.ZodType): AnswerContract {
  return {
    route: routePattern(route),
    schema,
    matches: (answer: { results: { registration: string }[] }, sent) => {
      if (answer.results.length !== sent.length)
        return `${answer.results.length} results for ${sent.length} registrations`;
      // One item per submitted registration, in order: normalised, or as sent when invalid.
      const stray = answer.results.findIndex(
        ({ registration }, index) =>
          registration !== sent[index] &&
          registration !== normaliseRegistration(sent[index] ?? ""),
      );
      return stray === -1
        ? undefined
        : `result ${stray + 1} is about another registration`;
    },
  };
}

/**
 * An answer about the service's data (the data and sources pages): its shape is the whole
 * contract.
 */
const about = (route: string, schema: z.ZodType): AnswerContract => ({
  route: routePattern(route),
  schema,
  matches: () => undefined,
});

const CONTRACTS: readonly AnswerContract[] = [
  single(ROUTE_PATTERNS.insurance, InsuranceRecordSchema),
  single(ROUTE_PATTERNS.compliance, ComplianceRecordSchema),
  bulk(ROUTE_PATTERNS.bulkInsurance, BulkResultSchema),
  bulk(ROUTE_PATTERNS.bulkCompliance, BulkComplianceResultSchema),
  about(DATA_PATHS.sources, DataSourcesSchema),
  about(DATA_PATHS.imports, ImportListSchema),
  about(DATA_PATHS.rejectsPattern, ImportRejectsSchema),
  about(REGISTERS_PATH, RegistersSchema),
];

/** Why a 200 answer to `asked` breaks the contract, or undefined when it keeps it. */
export function successBreach(json: unknown, asked: Asked): string | undefined {
  const contract = CONTRACTS.find(({ route }) => route.test(asked.path));
  if (!contract) return undefined;
  const parsed = contract.schema.safeParse(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    // The path and the message, never a value: values hold registrations.
    return `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}`;
  }
  return contract.matches(parsed.data as never, asked.registrations ?? []);
}

/**
 * An error answer's problem document, as the contract's schema parsed it; or why the answer is
 * not one.
 */
export function readProblem(
  json: unknown,
  status: number,
): { problem: Problem } | { breach: string } {
  const parsed = ProblemSchema.safeParse(json);
  if (!parsed.success) return { breach: "not a problem document" };
  if (parsed.data.status !== status)
    return { breach: `a problem document for status ${parsed.data.status}` };
  return { problem: parsed.data };
}
