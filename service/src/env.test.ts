import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, REPO_ROOT } from "./env.ts";

describe("parseEnv", () => {
  it("applies the defaults", () => {
    const parsed = parseEnv({});
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.env).toEqual({
      HOST: "127.0.0.1",
      PORT: 3001,
      DATABASE_PATH: resolve(REPO_ROOT, "data/vics.sqlite"),
      DATABASE_POOL_SIZE: 10,
      SANDBOX: undefined,
      LOG_LEVEL: "info",
      MAX_CONNECTIONS: 4000,
      MAX_CONNECTIONS_PER_ADDRESS: 1000,
      IDLE_TIMEOUT_UNDER_PRESSURE_MS: 1000,
      TRUSTED_PROXIES: [],
      METRICS_HOST: "127.0.0.1",
      // OpenTelemetry's defaults; no endpoint, so tracing is off.
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      OTEL_TRACES_SAMPLER_ARG: 1,
      OTEL_BSP_SCHEDULE_DELAY: 5000,
      OTEL_BSP_EXPORT_TIMEOUT: 30000,
      OTEL_BSP_MAX_QUEUE_SIZE: 2048,
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 512,
      sources: { freshForMs: 86_400_000, waitMs: 2000, bulkWaitMs: 5000 },
    });
    expect(REPO_ROOT).toBe(resolve(import.meta.dirname, "../.."));
  });

  it("gives every variable by its name, set or not, as the start would use it", () => {
    const sqlite = parseEnv({ DVLA_VES_BURST: "4" });
    expect(sqlite.ok && sqlite.variables).toMatchObject({
      DATABASE_PATH: resolve(REPO_ROOT, "data/vics.sqlite"),
      DATABASE_URL: undefined,
      SEED_SYNTHETIC_FLEET: true,
      SANDBOX: "(unset: on when the database holds the synthetic fleet)",
      RATE_LIMIT_URL: undefined,
      DATABASE_POOL_SIZE: "(not used: DATABASE_URL is unset)",
      OTEL_SERVICE_NAME: "vics-service",
      SOURCE_FRESH_HOURS: 24,
      // A register's pace as set, or its default.
      DVLA_VES_BURST: 4,
      DVLA_VES_PER_DAY: 250_000,
      DVSA_MOT_PER_SECOND: 15,
    });
    expect(sqlite.ok && Object.keys(sqlite.variables)).toContain(
      "DVSA_MOT_CLIENT_SECRET_FILE",
    );
    expect(sqlite.ok && Object.keys(sqlite.variables)).not.toContain("sources");
    const postgres = parseEnv({
      DATABASE_URL: "postgres://vics@127.0.0.1:5432/vics",
      SANDBOX: "false",
      OTEL_SERVICE_NAME: "vics-service-eu",
    });
    expect(postgres.ok && postgres.variables).toMatchObject({
      DATABASE_PATH: "(not used: DATABASE_URL is set)",
      DATABASE_POOL_SIZE: 10,
      OTEL_SERVICE_NAME: "vics-service-eu",
      SEED_SYNTHETIC_FLEET: false,
      SANDBOX: false,
    });
    const seeded = parseEnv({
      DATABASE_URL: "postgres://vics@127.0.0.1:5432/vics",
      SEED_SYNTHETIC_FLEET: "true",
    });
    expect(seeded.ok && seeded.variables.SEED_SYNTHETIC_FLEET).toBe(true);
  });

  it("refuses a span batch larger than its queue, beside every other problem", () => {
    expect(
      parseEnv({
        OTEL_BSP_MAX_QUEUE_SIZE: "100",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512",
        LOG_LEVEL: "loud",
      }),
    ).toMatchObject({
      ok: false,
      problems: [
        expect.stringMatching(/^LOG_LEVEL: /),
        expect.stringMatching(
          /^OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must be at most OTEL_BSP_MAX_QUEUE_SIZE \(512 over 100\)/,
        ),
      ],
    });
  });

  it("reads the metrics listener's port and host; unset, there is none", () => {
    const unset = parseEnv({});
    expect(unset.ok && unset.env.METRICS_PORT).toBeUndefined();
    expect(
      parseEnv({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" }),
    ).toMatchObject({
      ok: true,
      env: { METRICS_PORT: 9464, METRICS_HOST: "10.0.0.5" },
    });
    for (const bad of ["abc", "70000", "-1", "9464.0"])
      expect(parseEnv({ METRICS_PORT: bad })).toMatchObject({
        ok: false,
        problems: [expect.stringMatching(/^METRICS_PORT: /)],
      });
    // The public port is not the metrics': refused before a start would fail on it, and told
    // beside every other problem, the variables' and the sources'.
    const CLASH =
      "METRICS_PORT: must differ from PORT (both 3001): the metrics listen apart from the public port";
    expect(parseEnv({ METRICS_PORT: "3001" })).toEqual({
      ok: false,
      problems: [CLASH],
    });
    expect(parseEnv({ METRICS_PORT: "3001", LOG_LEVEL: "loud" })).toMatchObject(
      {
        ok: false,
        problems: [expect.stringMatching(/^LOG_LEVEL: /), CLASH],
      },
    );
    expect(
      parseEnv({
        METRICS_PORT: "3001",
        DVLA_VES_API_KEY_FILE: "/nonexistent/key",
      }),
    ).toEqual({
      ok: false,
      problems: [
        CLASH,
        "DVLA_VES_API_KEY_FILE: cannot read /nonexistent/key (ENOENT)",
      ],
    });
    // A port its field refuses is that field's problem only.
    expect(parseEnv({ PORT: "-5", METRICS_PORT: "-5" })).toMatchObject({
      ok: false,
      problems: [
        expect.stringMatching(/^PORT: /),
        expect.stringMatching(/^METRICS_PORT: /),
      ],
    });
    expect(parseEnv({ PORT: "0", METRICS_PORT: "0" })).toMatchObject({
      ok: true,
    });
  });

  it("treats empty variables as unset", () => {
    expect(
      parseEnv({ PORT: "", SANDBOX: "", DATABASE_PATH: "" }),
    ).toMatchObject({ ok: true, env: { PORT: 3001 } });
  });

  it.each([
    ["other.sqlite", resolve(REPO_ROOT, "other.sqlite")],
    ["/tmp/vics/x.sqlite", "/tmp/vics/x.sqlite"],
    [":memory:", ":memory:"],
  ])(
    "resolves DATABASE_PATH %j against the repository root",
    (value, expected) => {
      expect(parseEnv({ DATABASE_PATH: value })).toMatchObject({
        ok: true,
        env: { DATABASE_PATH: expected },
      });
    },
  );

  it("reads LOG_LEVEL", () => {
    expect(parseEnv({ LOG_LEVEL: "debug" })).toMatchObject({
      ok: true,
      env: { LOG_LEVEL: "debug" },
    });
  });

  it.each([
    ["true", true],
    ["false", false],
  ])("reads SANDBOX=%s", (value, expected) => {
    expect(parseEnv({ SANDBOX: value })).toMatchObject({
      ok: true,
      env: { SANDBOX: expected },
    });
  });

  it("reads the connection limits, and refuses one below 1", () => {
    expect(
      parseEnv({
        MAX_CONNECTIONS: "500",
        MAX_CONNECTIONS_PER_ADDRESS: "50",
        IDLE_TIMEOUT_UNDER_PRESSURE_MS: "250",
      }),
    ).toMatchObject({
      ok: true,
      env: {
        MAX_CONNECTIONS: 500,
        MAX_CONNECTIONS_PER_ADDRESS: 50,
        IDLE_TIMEOUT_UNDER_PRESSURE_MS: 250,
      },
    });
    const zero = parseEnv({ MAX_CONNECTIONS_PER_ADDRESS: "0" });
    expect(zero.ok ? [] : zero.problems).toEqual([
      "MAX_CONNECTIONS_PER_ADDRESS: must be at least 1",
    ]);
  });

  it("reads RATE_LIMIT_URL, a redis:// or rediss:// URL; unset keeps the limits in memory", () => {
    expect(parseEnv({ RATE_LIMIT_URL: "redis://10.0.0.5:6379" })).toMatchObject(
      { ok: true, env: { RATE_LIMIT_URL: "redis://10.0.0.5:6379" } },
    );
    expect(parseEnv({ RATE_LIMIT_URL: "" })).toMatchObject({
      ok: true,
      env: { RATE_LIMIT_URL: undefined },
    });
    expect(parseEnv({ RATE_LIMIT_URL: "http://10.0.0.5:6379" })).toEqual({
      ok: false,
      problems: [
        "RATE_LIMIT_URL: must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
      ],
    });
  });

  it("reads DATABASE_URL, a postgres:// or postgresql:// URL, and refuses anything else", () => {
    for (const url of [
      "postgres://vics:secret@10.0.0.5:5432/vics",
      "postgresql://vics@db/vics",
    ])
      expect(parseEnv({ DATABASE_URL: url })).toMatchObject({
        ok: true,
        env: { DATABASE_URL: url, DATABASE_POOL_SIZE: 10 },
      });
    expect(parseEnv({ DATABASE_URL: "" })).toMatchObject({
      ok: true,
      env: { DATABASE_URL: undefined },
    });
    expect(parseEnv({ DATABASE_URL: "data/vics.sqlite" })).toEqual({
      ok: false,
      problems: [
        "DATABASE_URL: must be a postgres:// or postgresql:// URL, e.g. postgres://vics@127.0.0.1:5432/vics",
      ],
    });
  });

  it.each([
    ["true", true],
    ["false", false],
    ["", undefined],
  ])("reads SEED_SYNTHETIC_FLEET=%j", (value, expected) => {
    expect(parseEnv({ SEED_SYNTHETIC_FLEET: value })).toMatchObject({
      ok: true,
      env: { SEED_SYNTHETIC_FLEET: expected },
    });
  });

  it("reads TRUSTED_PROXIES as the proxy does, and refuses names", () => {
    expect(
      parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.7," }),
    ).toMatchObject({
      ok: true,
      env: { TRUSTED_PROXIES: ["10.0.0.0/8", "192.0.2.7"] },
    });
    const named = parseEnv({ TRUSTED_PROXIES: "lb.example.org" });
    expect(named.ok ? [] : named.problems).toEqual([
      expect.stringMatching(
        /^TRUSTED_PROXIES: must be a comma-separated list of addresses/,
      ),
    ]);
  });

  it("reports every bad variable at once", () => {
    const result = parseEnv({
      PORT: "80a",
      SANDBOX: "yes",
      HOST: "0.0.0.0",
      LOG_LEVEL: "loud",
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(3);
      expect(result.problems.join("\n")).toMatch(
        /PORT: must be a whole number[\s\S]*LOG_LEVEL: must be one of debug, info, warn, error[\s\S]*SANDBOX: must be "true" or "false"/,
      );
    }
    const tooHigh = parseEnv({ PORT: "70000" });
    expect(tooHigh.ok ? [] : tooHigh.problems).toEqual([
      "PORT: must be at most 65535",
    ]);
  });
});
