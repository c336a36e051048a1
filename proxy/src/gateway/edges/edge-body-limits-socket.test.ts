import { FLEET_PATHS, ProblemSchema } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it } from "vitest";
import type { BodyLimitMiddleware } from "../http/json-body.ts";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";
import { sendChunkedBody } from "../../testing/chunked-body.ts";

/**
 * Every route that takes a request (POST, PUT, PATCH, DELETE), listed from the app's own route
 * declarations, so a route added later is in this test too: a chunked body over the route's
 * limit (the one it declares with limitBody, else the bulk checks' 64 KiB, else none) is cut off
 * with a 413 problem document while it is still being sent, and the body is never ended. A
 * route that read the whole body first would never answer, and time the test out.
 */

const serve = loopbackServers();
/** Over the bulk checks' 64 KiB: the limit of a route that declares none of its own. */
const UNDECLARED_OVER = 80 * 1024;

interface BodyRoute {
  method: string;
  path: string;
  declared?: BodyLimitMiddleware["limit"];
}

function bodyRoutes(
  routes: ReadonlyArray<{ method: string; path: string; handler: unknown }>,
): BodyRoute[] {
  const found = new Map<string, BodyRoute>();
  for (const { method, path, handler } of routes) {
    // ALL: middlewares and fallbacks, which answer under the routes below or as a 404/405.
    if (method === "GET" || method === "ALL") continue;
    const key = `${method} ${path}`;
    const route = found.get(key) ?? { method, path };
    const declared = (handler as Partial<BodyLimitMiddleware>).limit;
    if (declared) route.declared = declared;
    found.set(key, route);
  }
  return [...found.values()];
}

async function listening() {
  const upstream = fakeUpstream();
  // An admin: every role's routes get as far as their body.
  const test = createTestProxy({ fetch: upstream.fetch });
  const { port } = await serve(test.app.fetch);
  return { port, upstream, routes: bodyRoutes(test.anonymous.routes) };
}

describe("a chunked body over the limit, on every route that takes a request", async () => {
  const { routes } = await listening();

  it("lists the routes from the app, the unauthenticated ones among them", () => {
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    for (const expected of [
      "POST /api/auth/sign-in",
      "POST /api/auth/sign-in-link",
      "POST /api/auth/set-password",
      "POST /unsubscribe",
      `POST ${FLEET_PATHS.fleets}`,
      "PUT /api/fleets/:id/vehicles",
      "POST /api/v1/vehicle/bulk-insurance",
    ])
      expect(listed).toContain(expected);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route]))(
    "%s: 413 with the problem document before the body ends, nothing upstream",
    async (_name, route) => {
      const { port, upstream } = await listening();
      const answer = await sendChunkedBody({
        port,
        method: route.method,
        path: route.path.replace(/:[^/]+/g, "0f3e1c2a"),
        headers: { "Content-Type": "application/json" },
        bytes: route.declared
          ? route.declared.maxBytes + 64 * 1024
          : UNDECLARED_OVER,
      });
      expect(answer).toMatchObject({ status: 413, ended: false });
      const problem = ProblemSchema.parse(JSON.parse(answer.text));
      expect(problem.code).toBe("PAYLOAD_TOO_LARGE");
      if (route.declared)
        expect(problem.detail).toContain(`${route.declared.what} is too large`);
      expect(upstream.requests).toHaveLength(0);
    },
    60_000,
  );
});

const letter = (n: number) => String.fromCharCode(65 + (Math.floor(n) % 26));

describe("a chunked body within the limit", () => {
  const send = async (path: string, json: unknown) => {
    const { port } = await listening();
    return sendChunkedBody({
      port,
      method: "POST",
      path,
      headers: { "Content-Type": "application/json" },
      bytes: Buffer.from(JSON.stringify(json)),
      end: true,
    });
  };

  it("is read whole: a sign-in gets the answer about its password", async () => {
    const answer = await send("/api/auth/sign-in", {
      email: "nobody@example.org",
      password: "not the password",
    });
    expect(answer.status).toBe(401);
  });

  it("is read whole: a fleet of 20,000 vehicles, well over a form's limit, is saved", async () => {
    const vehicles = Array.from({ length: 20_000 }, (_, index) => ({
      registration: `AB${String(index % 100).padStart(2, "0")}${letter(index / 100)}${letter(index / 2600)}C`,
      cells: [`Driver ${index} with a long enough name`],
    }));
    const answer = await send(FLEET_PATHS.fleets, {
      name: "Chunked",
      columns: ["Driver"],
      vehicles,
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ vehicleCount: 20_000 });
  });
});
