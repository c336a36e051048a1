import { describe, expect, it } from "vitest";
import {
  exporterLines,
  formatSettings,
  HIDDEN,
  settingLines,
} from "./settings-view.ts";

describe("settingLines", () => {
  it("flattens nested settings to dotted paths, lists joined, unset said so", () => {
    expect(
      settingLines({
        port: 3000,
        remote: false,
        trustedProxies: ["10.0.0.0/8", "127.0.0.1"],
        domains: [],
        store: {
          databasePath: "/var/lib/vics/proxy.sqlite",
          databaseUrl: undefined,
        },
      }),
    ).toEqual([
      ["port", "3000"],
      ["remote", "false"],
      ["trustedProxies", "10.0.0.0/8, 127.0.0.1"],
      ["domains", "(none)"],
      ["store.databasePath", "/var/lib/vics/proxy.sqlite"],
      ["store.databaseUrl", "(unset)"],
    ]);
  });

  it("hides a setting named as a key, secret, password or token, at any depth", () => {
    const lines = settingLines({
      apiKey: "vics_live_0123",
      oidc: { clientId: "vics", clientSecret: "oidc-s3cret" },
      sources: {
        mot: { apiKey: "mot-key", tokenUrl: "https://login.example/token" },
      },
      logHashKey: undefined,
    });
    expect(lines).toEqual([
      ["apiKey", HIDDEN],
      ["oidc.clientId", "vics"],
      ["oidc.clientSecret", HIDDEN],
      ["sources.mot.apiKey", HIDDEN],
      // A URL that only names where tokens come from is not a token.
      ["sources.mot.tokenUrl", "https://login.example/token"],
      ["logHashKey", "(unset)"],
    ]);
  });

  it("shows a URL without its password or query, wherever it is", () => {
    expect(
      settingLines({
        databaseUrl:
          "postgres://vics:s3cret@db.example:5432/vics?sslmode=require",
        alertMail: { smtpUrl: "smtps://alerts:mailpass@smtp.example:465" },
        upstreamUrl: "http://127.0.0.1:3001",
      }),
    ).toEqual([
      ["databaseUrl", "postgres://vics@db.example:5432/vics"],
      ["alertMail.smtpUrl", "smtps://alerts@smtp.example:465"],
      ["upstreamUrl", "http://127.0.0.1:3001"],
    ]);
  });

  it("aligns the values in one column", () => {
    expect(
      formatSettings({ port: 3000, upstreamUrl: "http://127.0.0.1:3001" }),
    ).toBe("  port         3000\n  upstreamUrl  http://127.0.0.1:3001");
  });
});

describe("exporterLines", () => {
  it("shows the trace exporter's own variables, its headers by name only, and none VICS reads itself", () => {
    expect(
      exporterLines({
        OTEL_EXPORTER_OTLP_HEADERS:
          "authorization=Bearer%20a-token, x-tenant=vics",
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "5000",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces",
        OTEL_EXPORTER_OTLP_COMPRESSION: "",
        // Not the trace exporter's: a metrics exporter's URL, with a password.
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://user:pw@127.0.0.1:4318",
        OTEL_SERVICE_NAME: "vics-service",
        PATH: "/usr/bin",
      }),
    ).toEqual([
      ["OTEL_EXPORTER_OTLP_HEADERS", "(set, hidden: authorization, x-tenant)"],
      ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "5000"],
    ]);
    expect(exporterLines({ PATH: "/usr/bin" })).toEqual([]);
  });

  it("never shows what a header pair without '=' holds: the exporter drops it, and it is counted", () => {
    expect(
      exporterLines({
        OTEL_EXPORTER_OTLP_TRACES_HEADERS:
          "sk-live-abc123,Authorization: Bearer x.y.z,x-tenant=vics",
      }),
    ).toEqual([
      [
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
        '(set, hidden: x-tenant; 2 without "=", dropped)',
      ],
    ]);
  });
});
