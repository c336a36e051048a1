/**
 * `@vics/server-kit/testing/otlp-receiver`: an OTLP/http receiver on 127.0.0.1 that keeps what is
 * exported to it (each body as it came, and its spans read, with their process's service.name),
 * for the tracing tests. Test support, never imported by an app.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP's JSON encoding sends it, its attributes as a plain record. */
export interface ExportedSpan {
  /** Its process's service.name. */
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpExport {
  resourceSpans: {
    resource: { attributes?: OtlpAttribute[] };
    scopeSpans: {
      spans: (Omit<ExportedSpan, "service" | "attributes"> & {
        attributes?: OtlpAttribute[];
      })[];
    }[];
  }[];
}

const attributeMap = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [key, Object.values(value)[0]]),
  );

export interface OtlpReceiver {
  /** The general endpoint: OTEL_EXPORTER_OTLP_ENDPOINT's value. */
  endpoint: string;
  /** The traces endpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT's value. */
  url: string;
  /** Every body received so far, as it came. */
  bodies: string[];
  /** Each export's request headers, in the order received. */
  headers: IncomingHttpHeaders[];
  /** Every span received so far, in the order received. */
  spans: ExportedSpan[];
  close(): Promise<void>;
}

/**
 * The receiver. `status` is its answer to every export: 200 unless told (a collector that refuses
 * with 400, say), or "never" for one that takes the request and never answers. `body` is the
 * answer's JSON: an empty object, a full success, unless told (OTLP's partial success, say).
 */
export async function startOtlpReceiver({
  status = 200,
  body: answer = {},
}: {
  status?: number | "never";
  body?: object;
} = {}): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      bodies.push(body);
      headers.push(request.headers);
      if (request.url === "/v1/traces")
        for (const resource of (JSON.parse(body) as OtlpExport).resourceSpans) {
          const service = String(
            attributeMap(resource.resource.attributes)["service.name"],
          );
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                ...span,
                service,
                attributes: attributeMap(span.attributes),
              });
        }
      if (status === "never") return;
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(answer));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    url: `${endpoint}/v1/traces`,
    bodies,
    headers,
    spans,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // An export left unanswered holds its connection open.
        server.closeAllConnections();
      }),
  };
}
