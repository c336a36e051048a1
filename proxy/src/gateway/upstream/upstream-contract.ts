/**
 * Whether an upstream answer speaks the contract, so that the browser only ever gets one it
 * can read or the proxy's own problem (decision 017). A 200 must parse with the shared schema
 * its operation declares and be about the vehicles asked; any other status must carry a
 * problem document.
 */
import type { z } from "zod";
import {
  ProblemSchema,
  normaliseRegistration,
  type PointInTime,
  type Problem,
} from "@vics/shared";

/**
 * What was asked: the registrations the answer must be about (the path's, normalised; or the
 * bulk body's, as validated and sent), and the point in time.
 */
export interface Asked {
  /** The point in time asked (decision 041): validated here, sent as the query string. */
  pointInTime?: PointInTime;
  registrations?: readonly string[];
}

/** What a 200 answer must be: the shared schema, and about what was asked. */
export interface AnswerContract<Answer> {
  schema: z.ZodType<Answer>;
  /** Undefined when the parsed answer is about what was asked; else why not. */
  matches(answer: Answer, registrations: readonly string[]): string | undefined;
}

/** One vehicle's answer: about the registration asked. */
export function singleAnswer<Answer extends { registration: string }>(
  schema: z.ZodType<Answer>,
): AnswerContract<Answer> {
  return {
    schema,
    matches: (answer, [asked]) =>
      answer.registration === asked
        ? undefined
        : "the answer is about another registration",
  };
}

/** A bulk answer: one result per registration sent, in order. */
export function bulkAnswer<
  Answer extends { results: readonly { registration: string }[] },
>(schema: z.ZodType<Answer>): AnswerContract<Answer> {
  return {
    schema,
    matches: (answer, sent) => {
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
export const shapeAnswer = <Answer>(
  schema: z.ZodType<Answer>,
): AnswerContract<Answer> => ({ schema, matches: () => undefined });

/** A 200 answer as its contract parsed it, or why it breaks the contract. */
export function readAnswer<Answer>(
  json: unknown,
  contract: AnswerContract<Answer>,
  asked: Asked,
): { answer: Answer } | { breach: string } {
  const parsed = contract.schema.safeParse(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    // The path and the message, never a value: values hold registrations.
    return {
      breach: `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}`,
    };
  }
  const breach = contract.matches(parsed.data, asked.registrations ?? []);
  return breach === undefined ? { answer: parsed.data } : { breach };
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
