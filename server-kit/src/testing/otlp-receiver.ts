/**
 * `@vics/server-kit/testing/otlp-receiver`: an OTLP/http receiver on 127.0.0.1 that keeps the
 * spans exported to it (their trace id and name), for the tracing tests. Test support, never
 * imported by an app.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ExportedSpan {
  traceId: string;
  name: string;
}

interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
}

export interface OtlpReceiver {
  /** The traces endpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT's value. */
  url: string;
  /** Every span received so far, in the order received. */
  spans: ExportedSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const sent = JSON.parse(body) as OtlpExport;
      for (const resource of sent.resourceSpans)
        for (const scope of resource.scopeSpans)
          for (const { traceId, name } of scope.spans)
            spans.push({ traceId, name });
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    close: () =>
      new Promise((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
