// Whether a server answers as its OpenAPI document says: each request of a corpus goes through
// Prism's own router and validators (@stoplight/prism-http, what `prism proxy --errors` runs),
// in this process, with the server's app in place of Prism's network hop.
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import * as router from "@stoplight/prism-http/dist/router/index.js";
import {
  validateInput,
  validateOutput,
  validateSecurity,
} from "@stoplight/prism-http/dist/validator/index.js";
import type { IHttpRequest, IHttpResponse } from "@stoplight/prism-http";
import type { IHttpOperation } from "@stoplight/types";
import * as E from "fp-ts/lib/Either.js";

// A CommonJS module: its default export is the router, once or twice wrapped by the loader.
const routerExport = router.default as typeof router.default & {
  default?: typeof router.default;
};
const route = routerExport.default ?? routerExport;

type Method = "get" | "post" | "put" | "patch" | "delete" | "head";

/** One request of the corpus, and the status the server must answer it with. */
export interface ConformanceCase {
  /** What the case is about, e.g. "no session cookie". */
  name: string;
  method: Method;
  /** The document's path with its values and any query, e.g. /v1/compliance/AB12CDE. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /**
   * False for a request the document does not allow (no key, a malformed body...): Prism
   * would flag it, and only its answer is checked. Else the request must pass Prism's checks.
   */
  allowed?: boolean;
  /**
   * The operation whose answers apply when none matches the request: a wrong method's 405
   * is documented on the path's own operation. Prism's router finds the rest.
   */
  documentedAt?: { method: Method; path: string };
  /** The server for this case (one with a failing upstream, say) instead of the corpus's. */
  send?: (request: Request) => Promise<Response>;
}

export interface Violation {
  case: string;
  side: "request" | "answer" | "status" | "route";
  message: string;
  at?: string;
}

export interface ConformanceReport {
  /** Answers checked against the document: a case no operation matched is not one. */
  checked: number;
  violations: Violation[];
  /** "get /v1/compliance/{registration} 404": the operation and status each answer was. */
  covered: Set<string>;
}

/** Every operation and status the document lists, as `covered` names them. */
export function documentedAnswers(document: { paths?: object }): Set<string> {
  const answers = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, operation] of Object.entries(item as object)) {
      const responses = (operation as { responses?: object }).responses;
      if (responses)
        for (const status of Object.keys(responses))
          answers.add(`${method} ${path} ${status}`);
    }
  return answers;
}

// A loopback name: a proxy without a public origin answers only those (its host check).
const SERVER = "http://localhost";

async function asPrismResponse(response: Response): Promise<IHttpResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const text = await response.text();
  const json = /^application\/([\w.+-]*\+)?json/.test(
    headers["content-type"] ?? "",
  );
  return {
    statusCode: response.status,
    headers,
    body: json && text !== "" ? (JSON.parse(text) as unknown) : text,
  };
}

function asPrismRequest(corpusCase: ConformanceCase): IHttpRequest {
  const url = new URL(corpusCase.path, SERVER);
  const headers = Object.fromEntries(
    Object.entries(corpusCase.headers ?? {}).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );
  let body: unknown = corpusCase.body;
  if (body !== undefined) {
    headers["content-length"] ??= String(Buffer.byteLength(corpusCase.body!));
    try {
      body = JSON.parse(corpusCase.body!);
    } catch {
      // Sent as it is: Prism reads a body that is not JSON as text.
    }
  }
  const query: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams)
    (query[name] ??= []).push(value);
  return {
    method: corpusCase.method,
    url: { path: url.pathname, query },
    headers,
    body,
  };
}

const messages = (
  diagnostics: readonly { message: string; path?: readonly unknown[] }[],
) =>
  diagnostics.map((diagnostic) => ({
    message: diagnostic.message,
    at: diagnostic.path?.join("."),
  }));

/**
 * Sends each case to `send` (the server's app, reached at `base` + the document's path) and
 * checks the request and the answer with Prism's validators, against `document`.
 */
export async function checkConformance(
  document: object,
  corpus: readonly ConformanceCase[],
  send: (request: Request) => Promise<Response>,
  base = "",
): Promise<ConformanceReport> {
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const violations: Violation[] = [];
  const covered = new Set<string>();
  let checked = 0;
  for (const corpusCase of corpus) {
    const input = asPrismRequest(corpusCase);
    const add = (side: Violation["side"], found: ReturnType<typeof messages>) =>
      violations.push(
        ...found.map((violation) => ({
          case: corpusCase.name,
          side,
          ...violation,
        })),
      );
    const routed = route({ resources: operations, input });
    let operation: IHttpOperation | undefined = E.isRight(routed)
      ? routed.right
      : undefined;
    if (corpusCase.documentedAt) {
      const { method, path } = corpusCase.documentedAt;
      operation = operations.find(
        (candidate) => candidate.method === method && candidate.path === path,
      );
    }
    if (!operation) {
      add("route", [
        {
          message: E.isLeft(routed)
            ? String((routed.left as Error).message)
            : "no operation documented",
          at: undefined,
        },
      ]);
      continue;
    }
    const refused = [
      validateSecurity({ resource: operation, element: input }),
      validateInput({ resource: operation, element: input }),
    ].flatMap((check) => (E.isLeft(check) ? messages(check.left) : []));
    if (corpusCase.allowed !== false) add("request", refused);
    // A request said to be outside the document must be: else the flag hides a check.
    else if (E.isRight(routed) && refused.length === 0)
      add("request", [
        {
          message:
            "marked as a request the document does not allow, but Prism finds nothing wrong with it",
          at: undefined,
        },
      ]);
    const headers = new Headers(corpusCase.headers);
    const response = await (corpusCase.send ?? send)(
      new Request(`${SERVER}${base}${corpusCase.path}`, {
        method: corpusCase.method.toUpperCase(),
        headers,
        body: corpusCase.body,
      }),
    );
    const output = await asPrismResponse(response);
    covered.add(`${operation.method} ${operation.path} ${output.statusCode}`);
    if (output.statusCode !== corpusCase.status)
      add("status", [
        {
          message: `answered ${output.statusCode}, expected ${corpusCase.status}: ${JSON.stringify(output.body).slice(0, 300)}`,
          at: undefined,
        },
      ]);
    const answered = validateOutput({ resource: operation, element: output });
    checked++;
    if (E.isLeft(answered)) add("answer", messages(answered.left));
  }
  return { checked, violations, covered };
}
