/** Test doubles shared by the proxy's tests (not imported by the app). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProxyApp, type ProxyOptions } from "./app.ts";
import type { LogFields, Logger } from "./logger.ts";
import type { UpstreamFetch } from "./upstream-call.ts";

export const TEST_API_KEY = "vics_test_proxy_key_5f0c2a9e";

export interface LogEntry {
  level: "info" | "warn" | "error";
  message: string;
  fields: LogFields;
}

export function createMemoryLogger() {
  const entries: LogEntry[] = [];
  const record =
    (level: LogEntry["level"]) =>
    (message: string, fields: LogFields = {}) => {
      entries.push({ level, message, fields });
    };
  const logger: Logger = {
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
  };
  return { logger, entries, text: () => JSON.stringify(entries) };
}

/** A seam double for the upstream: records every request it is given. */
export function fakeUpstream(
  respond: (request: Request) => Response | Promise<Response> = () =>
    Response.json({ ok: true }),
) {
  const requests: Request[] = [];
  const fetch: UpstreamFetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    return respond(request);
  };
  return { fetch, requests };
}

export function emptyWebRoot(): string {
  return mkdtempSync(join(tmpdir(), "vics-proxy-web-"));
}

export function createTestProxy(
  options: Partial<ProxyOptions> & { fetch: UpstreamFetch },
) {
  const log = createMemoryLogger();
  const app = createProxyApp({
    upstreamUrl: "http://upstream.test",
    apiKey: TEST_API_KEY,
    timeoutMs: 1000,
    webRoot: emptyWebRoot(),
    logger: log.logger,
    ...options,
  });
  return { app, log };
}
