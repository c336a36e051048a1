// One signed-in check as one trace, as an operator's collector receives it: the real service
// and proxy processes export OTLP/http (JSON) to a receiver in this test process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_HEADER, REFERENCE_REGISTRATIONS } from "@vics/shared";
import {
  type ExportedSpan,
  type OtlpReceiver,
  startOtlpReceiver,
} from "@vics/server-kit/testing/otlp-receiver";
import {
  byMessage,
  keysCli,
  PROXY_ENTRY,
  type RunningChild,
  SERVICE_ENTRY,
  signInAsFirstAdmin,
  startNode,
} from "./testing/child-processes.ts";

const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
let endpoint: string;
let dir: string;
const children: RunningChild[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vics-traces-"));
  receiver = await startOtlpReceiver();
  endpoint = receiver.endpoint;
});
afterEach(() => {
  for (const child of children.splice(0))
    if (child.process.exitCode === null) child.process.kill("SIGKILL");
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const hex = (length: number) =>
  Array.from({ length }, () =>
    Math.floor(Math.random() * 16).toString(16),
  ).join("");

/** The real service and proxy, each with `env` of its own added, and a signed-in admin. */
async function startBoth(
  serviceEnv: Record<string, string>,
  proxyEnv: Record<string, string>,
) {
  const own = mkdtempSync(join(dir, "stack-"));
  const databasePath = join(own, "vics.sqlite");
  const service = startNode(SERVICE_ENTRY, {
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_PATH: databasePath,
    ...serviceEnv,
  });
  children.push(service);
  const serviceUrl = String(
    (await service.waitFor(byMessage("listening"))).url,
  );
  const key = await keysCli(
    databasePath,
    ...["create", "--plan", "internal", "--name", "traces"],
  );
  const keyFile = join(own, "proxy-api-key");
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  const proxy = startNode(PROXY_ENTRY, {
    PORT: "0",
    UPSTREAM_URL: serviceUrl,
    UPSTREAM_API_KEY_FILE: keyFile,
    WEB_DIST: dir,
    ...proxyEnv,
  });
  children.push(proxy);
  const proxyUrl = String((await proxy.waitFor(byMessage("listening"))).url);
  const cookie = await signInAsFirstAdmin(proxy, proxyUrl);
  return { service, serviceUrl, proxy, proxyUrl, key, cookie };
}

describe(
  "traces with OTEL_EXPORTER_OTLP_ENDPOINT set",
  { timeout: 120_000 },
  () => {
    it("makes one signed-in check one trace: the proxy's request and call, the service's request and its store's look-up, linked, with no plate", async () => {
      // The default sampler (parentbased_always_on): the browser's traceparent says "not
      // sampled", and the proxy, the edge, traces it all the same; the service follows.
      const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
      const { service, serviceUrl, proxy, proxyUrl, key, cookie } =
        await startBoth(tracing, tracing);

      // As the web app sends it: its own trace id and parent, not sampled (it records nothing).
      const traceId = hex(32);
      const browserSpanId = hex(16);
      const plate = REFERENCE_REGISTRATIONS[0];
      const check = await fetch(`${proxyUrl}api/v1/compliance/${plate}`, {
        headers: {
          [CLIENT_HEADER]: "web",
          Cookie: cookie,
          traceparent: `00-${traceId}-${browserSpanId}-00`,
        },
      });
      expect(check.status).toBe(200);
      const requestId = check.headers.get("X-Request-Id");

      // A stop sends the spans still held.
      proxy.process.kill("SIGTERM");
      expect((await proxy.exited).code).toBe(0);
      service.process.kill("SIGTERM");
      expect((await service.exited).code).toBe(0);

      const trace = receiver.spans.filter((span) => span.traceId === traceId);
      const one = (
        service: string,
        kind: number,
        matches: (span: ExportedSpan) => boolean = () => true,
      ) => {
        const found = trace.filter(
          (span) =>
            span.service === service && span.kind === kind && matches(span),
        );
        expect(
          found,
          `${service} kind ${kind} in ${JSON.stringify(trace)}`,
        ).toHaveLength(1);
        return found[0]!;
      };
      const proxyServer = one("vics-proxy", SERVER);
      expect(proxyServer).toMatchObject({
        name: "GET /api/v1/compliance/:registration",
        parentSpanId: browserSpanId,
        attributes: {
          "http.route": "/api/v1/compliance/:registration",
          "http.response.status_code": 200,
        },
      });
      const proxyCall = one(
        "vics-proxy",
        CLIENT,
        (span) => span.attributes["db.system.name"] === undefined,
      );
      expect(proxyCall).toMatchObject({
        name: "GET /v1/compliance/:registration",
        parentSpanId: proxyServer.spanId,
        attributes: {
          "url.full": `${serviceUrl.replace(/\/+$/, "")}/v1/compliance/:registration`,
          "http.response.status_code": 200,
        },
      });
      // The proxy's own store: the session read and the check's audit event, each a span.
      for (const operation of ["findSessionWithUser", "appendAudit"])
        expect(
          one(
            "vics-proxy",
            CLIENT,
            (span) => span.attributes["db.operation.name"] === operation,
          ),
        ).toMatchObject({
          parentSpanId: proxyServer.spanId,
          attributes: { "db.system.name": "sqlite" },
        });
      const serviceServer = one("vics-service", SERVER);
      expect(serviceServer).toMatchObject({
        name: "GET /v1/compliance/:registration",
        parentSpanId: proxyCall.spanId,
      });
      const lookup = one(
        "vics-service",
        CLIENT,
        (span) => span.attributes["db.operation.name"] === "findVehicle",
      );
      expect(lookup).toMatchObject({
        parentSpanId: serviceServer.spanId,
        attributes: { "db.system.name": "sqlite" },
      });

      // Nothing exported holds the plate, the key or the request's own id.
      const exported = receiver.bodies.join("\n");
      expect(exported).toContain(traceId);
      for (const secret of [plate, key, requestId ?? "no request id"])
        expect(exported).not.toContain(secret);
    });

    it("sends a check its share leaves out on as not sampled, whatever its caller said, so the service records nothing of it", async () => {
      // The proxy keeps no request; the service follows its caller (parentbased_always_on).
      const { service, serviceUrl, proxy, proxyUrl, key, cookie } =
        await startBoth(
          { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
          {
            OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
            OTEL_TRACES_SAMPLER: "always_off",
          },
        );
      const plate = REFERENCE_REGISTRATIONS[0];
      // A caller asking for its trace to be recorded, through the proxy...
      const leftOut = hex(32);
      const check = await fetch(`${proxyUrl}api/v1/compliance/${plate}`, {
        headers: {
          [CLIENT_HEADER]: "web",
          Cookie: cookie,
          traceparent: `00-${leftOut}-${hex(16)}-01`,
        },
      });
      expect(check.status).toBe(200);
      // ...and a bulk check sent in chunks, whose body limit hands the route a new Request.
      const bulkLeftOut = hex(32);
      const body = new TextEncoder().encode(
        JSON.stringify({ registrations: [plate] }),
      );
      const bulk = await fetch(`${proxyUrl}api/v1/vehicle/bulk-compliance`, {
        method: "POST",
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(body);
            controller.close();
          },
        }),
        duplex: "half",
        headers: {
          [CLIENT_HEADER]: "web",
          Cookie: cookie,
          "Content-Type": "application/json",
          traceparent: `00-${bulkLeftOut}-${hex(16)}-01`,
        },
      } as RequestInit);
      expect(bulk.status).toBe(200);
      // ...and, to show the service records what a caller's sampled flag asks, straight to it.
      const direct = hex(32);
      const asked = await fetch(`${serviceUrl}/v1/compliance/${plate}`, {
        headers: {
          "X-API-Key": key,
          traceparent: `00-${direct}-${hex(16)}-01`,
        },
      });
      expect(asked.status).toBe(200);

      proxy.process.kill("SIGTERM");
      expect((await proxy.exited).code).toBe(0);
      service.process.kill("SIGTERM");
      expect((await service.exited).code).toBe(0);

      const spansOf = (traceId: string) =>
        receiver.spans.filter((span) => span.traceId === traceId);
      expect(spansOf(direct).map((span) => span.service)).toContain(
        "vics-service",
      );
      expect(spansOf(leftOut)).toEqual([]);
      expect(spansOf(bulkLeftOut)).toEqual([]);
    });
  },
);
