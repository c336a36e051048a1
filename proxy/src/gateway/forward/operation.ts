/**
 * A forwarded operation, declared once (forwarded-operations.ts) with everything a later stage
 * needs: the edges read its body rule, the user limit its cost, the audit its action and
 * verdict, the forwarder its answer's contract. The object itself travels down the pipeline,
 * so no stage works it out again from the path.
 */
import type { MiddlewareHandler } from "hono";
import type { CheckAction, RecentCheckVerdict, Role } from "@vics/shared";
import type { ForwardedRoute } from "../openapi/openapi-copy.ts";
import type { AnswerContract } from "../upstream/upstream-contract.ts";

/**
 * Rewrites the JSON of a 200 answer before it goes back (the OpenAPI document's copy).
 * `undefined` means the answer is outside the contract: a 502, as for broken JSON.
 */
export type RewriteAnswer = (json: unknown) => unknown;

/** A check: one audit event, and look-ups counted against its user's own limit. */
export interface CheckRule<Answer> {
  action: CheckAction;
  /** The look-ups it costs, of the registrations it asks about. */
  lookups(registrations: readonly string[]): number;
  /** What a single check found, for the person's recent checks; absent for a bulk check. */
  verdict?(answer: Answer): RecentCheckVerdict;
}

/** What the forwarder needs of an operation to judge the upstream's answer. */
export interface UpstreamOperation<Answer = unknown> {
  /** What a 200 must be; absent: any JSON (the OpenAPI document, which `rewrite` then checks). */
  answer?: AnswerContract<Answer>;
  rewrite?: RewriteAnswer;
  /** Absent for what is not a check (the OpenAPI document, the data page): neither counted nor audited. */
  check?: CheckRule<Answer>;
}

export interface ForwardedOperation<Answer = unknown>
  extends ForwardedRoute, UpstreamOperation<Answer> {
  /**
   * The service's path for this request; `registration` is the path's registration already
   * normalised by the shared parser (A-Z and 0-9 only), for the routes that have one.
   */
  upstreamPath(registration: string): string;
  /** Who may ask: every /api route needs a signed-in user ("staff") at least. */
  role: Role;
  /**
   * The middleware that checks the body the route takes, its size limit among them (a bulk
   * check's in the kit's bulk-body.ts, which the service runs too). Absent: the route takes no
   * body, and one sent is refused at the edge (413).
   */
  body?: readonly MiddlewareHandler[];
}

/** The upstream's answer as it goes back, and its 200's JSON as its contract parsed it. */
export interface Forwarded<Answer> {
  response: Response;
  /** Undefined for any status but 200. */
  answer: Answer | undefined;
}

/** What a route sends back of a forward: the answer as it goes back, its parse left behind. */
export const responseOf = ({ response }: Forwarded<unknown>) => response;

/** Declares one operation, keeping its answer's type for its verdict. */
export const forwardedOperation = <Answer>(
  operation: ForwardedOperation<Answer>,
): ForwardedOperation<Answer> => operation;
