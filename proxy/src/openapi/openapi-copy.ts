import { CLIENT_HEADER, PROXY_PREFIX } from "@vics/shared";
import { z } from "zod";

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

const JsonObject = z.record(z.string(), z.unknown());

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
    };
  }
  return copy;
}

/**
 * The proxy's copy of the service's OpenAPI document: server /api, only the operations
 * the proxy forwards, no API key (the proxy sends its own), and the client header it requires. Undefined when the
 * upstream's answer is not an OpenAPI 3 document (docs/decisions/009-openapi-servers.md).
 */
export function proxyCopyOfOpenApi(
  document: unknown,
  forwarded: readonly ForwardedRoute[],
): Record<string, unknown> | undefined {
  const parsed = OpenApiDocument.safeParse(document);
  if (!parsed.success) return undefined;
  const { paths, components, ...rest } = parsed.data;
  const { securitySchemes: _schemes, ...otherComponents } = components ?? {};
  const copied = forwardedPaths(paths, forwarded);
  return {
    ...rest,
    servers: [PROXY_SERVER],
    security: [],
    paths: copied,
    ...(components && { components: usedComponents(copied, otherComponents) }),
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
