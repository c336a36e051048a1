import {
  BULK_MAX_BODY_BYTES,
  CLIENT_HEADER,
  OWN_LIMIT_HEADERS,
  PROBLEM_CONTENT_TYPE,
  PROXY_PREFIX,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  ROUTE_PATTERNS,
} from "@vics/shared";
import { z } from "zod";
import { SESSION_COOKIE } from "../http/session-cookie.ts";

/** An operation the proxy forwards: an HTTP method on one of the service's routes. */
export interface ForwardedRoute {
  method: "get" | "post";
  /** The service's Hono pattern, e.g. /v1/compliance/:registration. */
  route: string;
}

export const PROXY_SERVER = {
  url: PROXY_PREFIX,
  description:
    "The VICS web app's server, which adds the API key: send none of your own",
};

/**
 * Required by the proxy on every /api request (docs/decisions/018-proxy-edges.md), so the copy
 * asks every operation for it, and a generated client sends it.
 */
export const CLIENT_HEADER_PARAMETER = {
  name: CLIENT_HEADER,
  in: "header",
  required: true,
  description:
    "Names the client: any value (the VICS web app sends `web`). Without it the proxy answers 403, so a page on another site, which cannot send it, cannot spend the API key's quota.",
  schema: { type: "string", minLength: 1 },
  example: "my-script",
};

/**
 * How the proxy knows who calls: the session cookie a sign-in sets (decision 033), never an
 * API key. Its name carries __Host- when the proxy is served over https (auth/sessions.ts).
 */
const SESSION_SCHEME = "Session";
export const sessionSecurityScheme = {
  type: "apiKey",
  in: "cookie",
  name: SESSION_COOKIE,
  description: `The session cookie that signing in to VICS sets (named __Host-${SESSION_COOKIE} where VICS is served over https). It is HttpOnly and SameSite=Lax: a program signs in first (POST /api/auth/sign-in) and sends the cookie back. Every operation also needs the X-VICS-Client header, and a browser's Origin and Sec-Fetch-Site must be VICS's own.`,
};

/** What the copy says of the answers, in place of the service's words about its own. */
export const PROXY_DESCRIPTION =
  "The VICS web app's server (the proxy) forwards these operations to the vehicle service with its own API key, for a signed-in user. Every error is an RFC 9457 problem document (application/problem+json), and every response carries X-Request-Id. The X-RateLimit-* headers come with every answer the service gave and with the proxy's own 429 (the tighter of the user's own limit and the key's plan); a refusal the proxy answers itself (no session, a missing header, another site or host, a body it does not take, a wrong method) counts against nothing and carries none.";

const JsonObject = z.record(z.string(), z.unknown());
type Json = Record<string, unknown>;

// The service's header components: on the answers the proxy may give itself, each
// X-RateLimit-* one becomes an optional twin (decision 058).
const RATE_LIMIT_NAMES = new Set<string>(Object.values(RATE_LIMIT_HEADERS));
const OPTIONAL_SUFFIX = "IfCounted";
const REQUEST_ID = { $ref: "#/components/headers/RequestId" };

/**
 * The signed-in user's own budget, in look-ups, on every answer to a check the proxy counted
 * (user-limited-forward.ts): what the app's meter shows. Optional, as a refusal before the
 * count (no session, another site) carries none.
 */
const OWN_LIMIT_COMPONENTS: Record<string, Json> = {
  OwnLimit: {
    description:
      "The signed-in user's own look-ups a minute (a bulk check counts each registration), whatever the key's plan",
    required: false,
    schema: { type: "integer", minimum: 0 },
  },
  OwnRemaining: {
    description: "The user's own look-ups left in this minute",
    required: false,
    schema: { type: "integer", minimum: 0 },
  },
  OwnReset: {
    description: "Seconds until the user's own minute starts again",
    required: false,
    schema: { type: "integer", minimum: 0 },
  },
};
const OWN_LIMIT_REFS: Json = {
  [OWN_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/OwnLimit" },
  [OWN_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/OwnRemaining" },
  [OWN_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/OwnReset" },
};

/** `response` with the user's own budget headers beside its others. */
function withOwnLimits(response: unknown): unknown {
  const object = JsonObject.safeParse(response);
  // A reference takes no headers beside it: what it points to says what it carries.
  if (!object.success || "$ref" in object.data) return response;
  const headers = JsonObject.safeParse(object.data.headers ?? {});
  return {
    ...object.data,
    headers: { ...(headers.success ? headers.data : {}), ...OWN_LIMIT_REFS },
  };
}

/** An answer of the proxy's own: a problem document and its request id, nothing counted. */
function ownProblem(description: string): Json {
  return {
    description,
    headers: { [REQUEST_ID_HEADER]: REQUEST_ID },
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: "#/components/schemas/Problem" },
      },
    },
  };
}

const GATEWAY_PROBLEMS: Json = {
  "502": ownProblem(
    "BAD_GATEWAY: the vehicle service could not be reached, was unavailable, or answered outside its contract",
  ),
  "504": ownProblem(
    "GATEWAY_TIMEOUT: the vehicle service, or a gateway in front of it, did not answer in time",
  ),
};

/**
 * The refusals the proxy answers before anything reaches the service (decision 018's edges,
 * the session, the role), each operation's own, added beside or in place of the service's.
 */
function proxyRefusals(method: string): Json {
  const bulk = method === "post";
  return {
    "401": ownProblem(
      "SIGN_IN_REQUIRED: no session cookie, or its session has ended: sign in. (UNAUTHORIZED, with the X-RateLimit-* headers, if the vehicle service refused the proxy's own key: the operator's to fix.)",
    ),
    "403": ownProblem(
      `FORBIDDEN: no ${CLIENT_HEADER} header, or a request from a page on another site (its Origin or Sec-Fetch-Site)${bulk ? "; ROLE_REQUIRED: the bulk checks need the fleet role" : ""}`,
    ),
    "405": ownProblem(
      `METHOD_NOT_ALLOWED: this path only answers ${bulk ? "POST" : "GET"}; see the Allow header`,
    ),
    "413": ownProblem(
      bulk
        ? `PAYLOAD_TOO_LARGE: the body is over ${BULK_MAX_BODY_BYTES / 1024} KiB`
        : "PAYLOAD_TOO_LARGE: this operation takes no request body",
    ),
    "421": ownProblem(
      "MISDIRECTED_REQUEST: the request's Host is not VICS's own address (against DNS rebinding)",
    ),
  };
}

/**
 * The statuses the proxy may answer itself where the service answers them too (a registration
 * or point in time it refuses first, a fault of its own): the service's words, its
 * rate-limit headers optional.
 */
const SHARED_STATUSES = new Set(["400", "500"]);

function withOptionalRateLimits(response: Json): Json {
  const headers = JsonObject.safeParse(response.headers);
  if (!headers.success) return response;
  return {
    ...response,
    headers: Object.fromEntries(
      Object.entries(headers.data).map(([name, header]) => {
        const ref = (header as { $ref?: unknown } | undefined)?.$ref;
        return RATE_LIMIT_NAMES.has(name) && typeof ref === "string"
          ? [name, { $ref: ref + OPTIONAL_SUFFIX }]
          : [name, header];
      }),
    ),
  };
}

/** The operation's answers as the proxy gives them: the service's, and the proxy's own. */
function proxyResponses(
  method: string,
  path: string,
  responses: unknown,
): Json {
  const service = JsonObject.safeParse(responses);
  if (!service.success) return {};
  const answers: Json = {};
  for (const [status, response] of Object.entries(service.data)) {
    const object = JsonObject.safeParse(response);
    answers[status] =
      object.success && SHARED_STATUSES.has(status)
        ? withOptionalRateLimits(object.data)
        : response;
  }
  const isCheck = path !== openApiPath(ROUTE_PATTERNS.openapi);
  // Every answer the service gave to a check the proxy counted carries the user's own budget.
  if (isCheck)
    for (const status of Object.keys(answers))
      answers[status] = withOwnLimits(answers[status]);
  Object.assign(answers, proxyRefusals(method), GATEWAY_PROBLEMS);
  const limited = JsonObject.safeParse(answers["429"]);
  // The checks count against the user's own limit too; the document is not a look-up.
  if (limited.success && isCheck)
    answers["429"] = {
      ...limited.data,
      description:
        "RATE_LIMITED: the user's own limit of look-ups a minute, or the proxy's key's plan at the service, is reached; wait Retry-After seconds",
    };
  return Object.fromEntries(
    Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The optional twins of the service's X-RateLimit-* header components. */
function optionalRateLimitHeaders(headers: unknown): Json {
  const components = JsonObject.safeParse(headers);
  if (!components.success) return {};
  const twins: Json = {};
  for (const [name, header] of Object.entries(components.data)) {
    const object = JsonObject.safeParse(header);
    if (!object.success || !/^RateLimit/.test(name)) continue;
    twins[name + OPTIONAL_SUFFIX] = {
      ...object.data,
      required: false,
      description: `${String(object.data.description ?? "")}: absent on a refusal the proxy answers itself, which counts against nothing`,
    };
  }
  return twins;
}

// Only what the copy needs: anything else (webhooks, tags, ...) is passed on as it is.
const OpenApiDocument = z.looseObject({
  openapi: z.string().regex(/^3\./),
  paths: z.record(z.string(), JsonObject),
  components: JsonObject.optional(),
});

// Fields of a path item kept beside its operations; its own `servers` would point elsewhere.
const PATH_ITEM_FIELDS = ["summary", "description", "parameters"] as const;

/** /v1/compliance/:registration becomes the OpenAPI path /v1/compliance/{registration}. */
export function openApiPath(route: string): string {
  return route.replace(/:(\w+)/g, "{$1}");
}

function forwardedPaths(
  paths: Record<string, Record<string, unknown>>,
  forwarded: readonly ForwardedRoute[],
) {
  const copy: Record<string, Record<string, unknown>> = {};
  for (const { method, route } of forwarded) {
    const path = openApiPath(route);
    const item = paths[path];
    const operation = JsonObject.safeParse(item?.[method]);
    if (!item || !operation.success) continue;
    // The proxy adds the key and is the only server: neither is the client's business.
    const {
      security: _security,
      servers: _servers,
      ...callable
    } = operation.data;
    copy[path] ??= Object.fromEntries(
      PATH_ITEM_FIELDS.filter((field) => field in item).map((field) => [
        field,
        item[field],
      ]),
    );
    const parameters = Array.isArray(callable.parameters)
      ? callable.parameters
      : [];
    copy[path][method] = {
      ...callable,
      parameters: [...parameters, CLIENT_HEADER_PARAMETER],
      responses: proxyResponses(method, path, callable.responses),
    };
  }
  return copy;
}

/**
 * The proxy's copy of the service's OpenAPI document: server /api, only the operations
 * the proxy forwards, the session cookie in place of the API key (the proxy sends its own),
 * the client header it requires, and the answers the proxy gives itself (decision 058).
 * Undefined when the upstream's answer is not an OpenAPI 3 document
 * (docs/decisions/009-openapi-servers.md).
 */
export function proxyCopyOfOpenApi(
  document: unknown,
  forwarded: readonly ForwardedRoute[],
): Record<string, unknown> | undefined {
  const parsed = OpenApiDocument.safeParse(document);
  if (!parsed.success) return undefined;
  const { paths, components, info, ...rest } = parsed.data;
  const { securitySchemes: _schemes, ...otherComponents } = components ?? {};
  const copied = forwardedPaths(paths, forwarded);
  const headers = JsonObject.safeParse(otherComponents.headers);
  return {
    ...rest,
    info: { ...JsonObject.parse(info ?? {}), description: PROXY_DESCRIPTION },
    servers: [PROXY_SERVER],
    security: [{ [SESSION_SCHEME]: [] }],
    paths: copied,
    components: {
      ...usedComponents(copied, {
        ...otherComponents,
        headers: {
          ...(headers.success && headers.data),
          ...(headers.success && optionalRateLimitHeaders(headers.data)),
          ...OWN_LIMIT_COMPONENTS,
        },
      }),
      securitySchemes: { [SESSION_SCHEME]: sessionSecurityScheme },
    },
  };
}

/**
 * Only the components the copied operations use, directly or through each other: the
 * service's own extensions (the data page's) leave theirs behind with them.
 */
function usedComponents(
  paths: unknown,
  components: Record<string, unknown>,
): Record<string, unknown> {
  const used = new Set<string>();
  const pending: unknown[] = [paths];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) {
        const ref = /^#\/components\/(\w+)\/([^/]+)$/.exec(
          key === "$ref" && typeof inner === "string" ? inner : "",
        );
        if (ref && !used.has(inner as string)) {
          used.add(inner as string);
          const [, kind = "", name = ""] = ref;
          pending.push((components[kind] as Record<string, unknown>)?.[name]);
        } else pending.push(inner);
      }
  }
  return Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      Object.fromEntries(
        Object.entries(entries as Record<string, unknown>).filter(([name]) =>
          used.has(`#/components/${kind}/${name}`),
        ),
      ),
    ]),
  );
}
