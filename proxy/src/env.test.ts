import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, REPO_ROOT } from "./env.ts";

const KEY = "vics_env_test_key_0a1b2c";

function keyFile(contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "vics-proxy-env-")), "key");
  writeFileSync(file, contents);
  return file;
}

function errorsOf(source: Record<string, string>): string[] {
  const result = parseEnv(source);
  if (result.ok) throw new Error("expected the environment to be refused");
  return result.errors;
}

function envOf(source: Record<string, string>) {
  const result = parseEnv({ UPSTREAM_API_KEY: KEY, ...source });
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.env;
}

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const result = parseEnv({ UPSTREAM_API_KEY: KEY });
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.env).toEqual({
      host: "127.0.0.1",
      port: 3000,
      upstreamUrl: "http://127.0.0.1:3001",
      apiKey: KEY,
      timeoutMs: 10000,
      trustedProxies: [],
      webRoot: resolve(REPO_ROOT, "web/dist"),
      logLevel: "info",
      // As long as an upstream call may take, and a second more.
      shutdownGraceMs: 11000,
      connectionLimits: {
        maxTotal: 4000,
        maxPerAddress: 1000,
        idleUnderPressureMs: 1000,
      },
      store: {
        databasePath: resolve(REPO_ROOT, "data/proxy.sqlite"),
        auditRetentionDays: 400,
        linkOrigin: "http://127.0.0.1:3000",
      },
      remote: false,
      // A working day with a lunch break; the next morning signs in again.
      sessionTimes: { idleMs: 8 * 3_600_000, absoluteMs: 12 * 3_600_000 },
      localSignIn: true,
      oidc: undefined,
      firstAdminEmail: "admin@localhost",
      userLimits: { staff: 120, fleet: 50_000, admin: 50_000 },
      fleetCaps: { maxFleets: 100, maxWatchedVehicles: 250_000 },
      // No domains set: the team's are those of its accounts.
      alertEmails: { maxExternal: 5 },
      // Four hours before the daily sweep.
      watchRefreshLeadMinutes: 240,
    });
    // The same by the variables' names, for config check: the key hidden there by its name.
    expect(result.ok && result.variables).toMatchObject({
      PORT: 3000,
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_API_KEY_FILE: undefined,
      SHUTDOWN_GRACE_MS: 11_000,
      DATABASE_URL: undefined,
      SESSION_IDLE_MINUTES: 480,
    });
    expect(REPO_ROOT).toBe(resolve(import.meta.dirname, "../.."));
  });

  it("reads every variable it is given", () => {
    const result = parseEnv({
      HOST: "::1",
      PORT: "4000",
      UPSTREAM_URL: "https://vics.internal:8443/",
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_TIMEOUT_MS: "2500",
      WEB_DIST: "some/dist",
      LOG_LEVEL: "debug",
    });
    expect(result.ok && result.env).toMatchObject({
      host: "::1",
      port: 4000,
      upstreamUrl: "https://vics.internal:8443/",
      timeoutMs: 2500,
      webRoot: resolve(REPO_ROOT, "some/dist"),
      logLevel: "debug",
    });
  });

  it("refuses a metrics port that is the public port, but not two free ones", () => {
    expect(
      errorsOf({ UPSTREAM_API_KEY: KEY, PORT: "8080", METRICS_PORT: "8080" }),
    ).toEqual([
      "METRICS_PORT: must differ from PORT (both 8080): the metrics listen apart from the public port",
    ]);
    // Told beside another variable's problem, not hidden by it.
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        METRICS_PORT: "3000",
        LOG_LEVEL: "loud",
      }),
    ).toEqual([
      expect.stringMatching(/^LOG_LEVEL: /),
      "METRICS_PORT: must differ from PORT (both 3000): the metrics listen apart from the public port",
    ]);
    expect(envOf({ PORT: "0", METRICS_PORT: "0" }).metrics).toEqual({
      host: "127.0.0.1",
      port: 0,
    });
  });

  it("passes the span batch settings to tracing, and refuses a batch larger than its queue", () => {
    expect(
      envOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_BSP_SCHEDULE_DELAY: "200",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "64",
      }).tracing?.batch,
    ).toEqual({
      scheduledDelayMillis: 200,
      exportTimeoutMillis: 30000,
      maxQueueSize: 2048,
      maxExportBatchSize: 64,
    });
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        OTEL_BSP_MAX_QUEUE_SIZE: "64",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512",
        LOG_LEVEL: "loud",
      }),
    ).toEqual([
      expect.stringMatching(/^LOG_LEVEL: /),
      "OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must be at most OTEL_BSP_MAX_QUEUE_SIZE (512 over 64): a batch is taken from the queue",
    ]);
  });

  it("reads the connection limits, and refuses one below 1", () => {
    const result = parseEnv({
      UPSTREAM_API_KEY: KEY,
      MAX_CONNECTIONS: "500",
      MAX_CONNECTIONS_PER_ADDRESS: "50",
      IDLE_TIMEOUT_UNDER_PRESSURE_MS: "250",
    });
    expect(result.ok && result.env.connectionLimits).toEqual({
      maxTotal: 500,
      maxPerAddress: 50,
      idleUnderPressureMs: 250,
    });
    expect(
      errorsOf({ UPSTREAM_API_KEY: KEY, MAX_CONNECTIONS: "0" }).join("\n"),
    ).toMatch(/MAX_CONNECTIONS: /);
  });

  it("reads the key from UPSTREAM_API_KEY_FILE, trimmed", () => {
    const result = parseEnv({ UPSTREAM_API_KEY_FILE: keyFile(`  ${KEY}\n`) });
    expect(result.ok && result.env.apiKey).toBe(KEY);
  });

  it("resolves relative WEB_DIST and UPSTREAM_API_KEY_FILE against the repository root", () => {
    // `npm test` runs this in proxy/, where these relative paths would miss; index.test.ts
    // proves the same from a working directory outside the repository.
    const file = keyFile(KEY);
    const result = parseEnv({
      UPSTREAM_API_KEY_FILE: relative(REPO_ROOT, file),
      WEB_DIST: "web/dist",
    });
    expect(result.ok && result.env).toMatchObject({
      apiKey: KEY,
      webRoot: join(REPO_ROOT, "web/dist"),
    });
    expect(errorsOf({ UPSTREAM_API_KEY_FILE: "no/such/key" }).join()).toContain(
      `cannot read ${join(REPO_ROOT, "no/such/key")} (ENOENT)`,
    );
  });

  it.each([
    ["missing", {}, /UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set/],
    ["empty", { UPSTREAM_API_KEY: "" }, /must be set/],
    ["blank", { UPSTREAM_API_KEY: "   " }, /must be set/],
    [
      "in an empty file",
      { UPSTREAM_API_KEY_FILE: keyFile("\n  \n") },
      /UPSTREAM_API_KEY_FILE: .* is empty/,
    ],
    [
      "in a file that does not exist",
      { UPSTREAM_API_KEY_FILE: "/nonexistent/vics/key" },
      /cannot read \/nonexistent\/vics\/key \(ENOENT\)/,
    ],
    [
      "given twice",
      { UPSTREAM_API_KEY: KEY, UPSTREAM_API_KEY_FILE: keyFile(KEY) },
      /only one of/,
    ],
    [
      "not sendable in a header",
      { UPSTREAM_API_KEY: "two words" },
      /cannot be sent in a header/,
    ],
    ["a placeholder", { UPSTREAM_API_KEY: "x" }, /too short/],
  ])("refuses a key that is %s", (_case, source, message) => {
    const errors = errorsOf(source);
    expect(errors.join("\n")).toMatch(message);
  });

  it("refuses a key file it cannot read as a file", () => {
    // A directory cannot be read as a file even by root, unlike a chmod 000 file.
    const directory = mkdtempSync(join(tmpdir(), "vics-proxy-env-"));
    expect(errorsOf({ UPSTREAM_API_KEY_FILE: directory }).join()).toMatch(
      /cannot read .* \(EISDIR\)/,
    );
  });

  it.each(["0.0.0.0", "192.168.1.10", "::", "example.com"])(
    "refuses HOST=%s without an https PUBLIC_ORIGIN, saying why",
    (host) => {
      for (const origin of [undefined, "http://vics.example.org"]) {
        const errors = errorsOf({
          HOST: host,
          UPSTREAM_API_KEY: KEY,
          ...(origin && { PUBLIC_ORIGIN: origin }),
        });
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain(`HOST=${host} also needs PUBLIC_ORIGIN`);
        expect(errors[0]).toMatch(/travel only over https.*TRUSTED_PROXIES/s);
      }
    },
  );

  it("accepts a remote HOST with an https public origin (an admin is checked at start-up)", () => {
    const result = parseEnv({
      HOST: "0.0.0.0",
      PUBLIC_ORIGIN: "https://VICS.example.org:443/",
      TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.7",
      UPSTREAM_API_KEY: KEY,
    });
    expect(result.ok && result.env).toMatchObject({
      host: "0.0.0.0",
      remote: true,
      publicOrigin: "https://vics.example.org",
      trustedProxies: ["10.0.0.0/8", "192.0.2.7"],
      store: { linkOrigin: "https://vics.example.org" },
    });
  });

  it("refuses TRUSTED_PROXIES that are not addresses", () => {
    expect(
      errorsOf({
        TRUSTED_PROXIES: "lb.example.org",
        UPSTREAM_API_KEY: KEY,
      }).join(),
    ).toMatch(/TRUSTED_PROXIES: must be a comma-separated list of addresses/);
  });

  it("reads RATE_LIMIT_URL, a redis:// or rediss:// URL; unset keeps the limits in memory", () => {
    expect(envOf({}).rateLimitUrl).toBeUndefined();
    expect(envOf({ RATE_LIMIT_URL: "" }).rateLimitUrl).toBeUndefined();
    expect(
      envOf({ RATE_LIMIT_URL: "rediss://cache.internal:6380" }),
    ).toMatchObject({ rateLimitUrl: "rediss://cache.internal:6380" });
    expect(
      errorsOf({
        RATE_LIMIT_URL: "cache.internal:6379",
        UPSTREAM_API_KEY: KEY,
      }),
    ).toEqual([
      "RATE_LIMIT_URL: must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    ]);
  });

  it("reads OIDC with PUBLIC_ORIGIN, and refuses it partly set or without one", () => {
    const oidc = {
      OIDC_ISSUER: "https://login.example.org/tenant/v2.0",
      OIDC_CLIENT_ID: "vics",
      OIDC_CLIENT_SECRET: "s3cret-value",
      OIDC_ALLOWED_DOMAINS: "Example.org, example.co.uk",
      UPSTREAM_API_KEY: KEY,
    };
    const result = parseEnv({
      ...oidc,
      PUBLIC_ORIGIN: "https://vics.example.org",
    });
    expect(result.ok && result.env.oidc).toEqual({
      issuer: "https://login.example.org/tenant/v2.0",
      clientId: "vics",
      clientSecret: "s3cret-value",
      label: "Sign in with your organisation account",
      allowedDomains: ["example.org", "example.co.uk"],
      allowHttpIssuer: false,
    });
    expect(errorsOf(oidc).join()).toMatch(/OIDC needs PUBLIC_ORIGIN/);
    expect(
      errorsOf({ OIDC_ISSUER: oidc.OIDC_ISSUER, UPSTREAM_API_KEY: KEY }).join(),
    ).toMatch(/OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET .* together/);
    expect(
      errorsOf({ LOCAL_SIGN_IN: "false", UPSTREAM_API_KEY: KEY }).join(),
    ).toMatch(/otherwise no one could sign in/);
    expect(
      errorsOf({
        ...oidc,
        OIDC_ISSUER: "http://login.example.org",
        PUBLIC_ORIGIN: "https://vics.example.org",
      }).join(),
    ).toMatch(/OIDC_ISSUER must be https/);
  });

  it("reads the team's caps on saved fleets, and refuses one that is not a positive count", () => {
    expect(
      envOf({ MAX_FLEETS: "12", MAX_WATCHED_VEHICLES: "300000" }).fleetCaps,
    ).toEqual({ maxFleets: 12, maxWatchedVehicles: 300_000 });
    expect(errorsOf({ MAX_FLEETS: "0", UPSTREAM_API_KEY: KEY }).join()).toMatch(
      /MAX_FLEETS/,
    );
  });

  it("reads the team's email domains and the cap on addresses outside them", () => {
    expect(
      envOf({
        ALERT_EMAIL_DOMAINS: " Fleet.example, depot.example.org ",
        ALERT_RULE_MAX_EXTERNAL_EMAILS: "0",
      }).alertEmails,
    ).toEqual({
      domains: ["fleet.example", "depot.example.org"],
      maxExternal: 0,
    });
    const errors = errorsOf({
      ALERT_RULE_MAX_EXTERNAL_EMAILS: "21",
      ALERT_EMAIL_DOMAINS: "fleet.example, not a domain",
      UPSTREAM_API_KEY: KEY,
    }).join("\n");
    expect(errors).toMatch(/ALERT_RULE_MAX_EXTERNAL_EMAILS: .*20/);
    expect(errors).toMatch(/ALERT_EMAIL_DOMAINS: .*"not a domain"/);
  });

  it("reads how long before the daily sweep the register facts are refreshed: 240 minutes unless told (DVLA's 10 a second needs 2 h 47 min for 100,000), 0 for never, at most 12 hours", () => {
    expect(envOf({}).watchRefreshLeadMinutes).toBe(240);
    expect(
      envOf({ WATCH_REFRESH_LEAD_MINUTES: "0" }).watchRefreshLeadMinutes,
    ).toBe(0);
    expect(
      envOf({ WATCH_REFRESH_LEAD_MINUTES: "45" }).watchRefreshLeadMinutes,
    ).toBe(45);
    for (const bad of ["721", "-5", "1.5", "soon"])
      expect(
        errorsOf({
          WATCH_REFRESH_LEAD_MINUTES: bad,
          UPSTREAM_API_KEY: KEY,
        }).join("\n"),
      ).toMatch(/WATCH_REFRESH_LEAD_MINUTES/);
    expect(
      errorsOf({
        WATCH_REFRESH_LEAD_MINUTES: "721",
        UPSTREAM_API_KEY: KEY,
      }).join("\n"),
    ).toMatch(/WATCH_REFRESH_LEAD_MINUTES: must be at most 720/);
  });

  // One rule for every number: digits only, as UPSTREAM_TIMEOUT_MS and the rest read them.
  it.each([
    "SHUTDOWN_GRACE_MS",
    "AUDIT_RETENTION_DAYS",
    "ALERT_RULE_MAX_EXTERNAL_EMAILS",
    "WATCH_REFRESH_LEAD_MINUTES",
  ])(
    "refuses %s written other than in digits, as Number() would read it",
    (name) => {
      expect(envOf({ [name]: "5" })).toBeDefined();
      for (const bad of ["1e3", " 5 ", "0x10", "1.0"])
        expect(
          errorsOf({ [name]: bad, UPSTREAM_API_KEY: KEY }).join("\n"),
        ).toContain(`${name}: must be a whole number`);
    },
  );

  it("reads the session times and each role's own limit", () => {
    expect(
      envOf({ SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "9" }),
    ).toMatchObject({
      sessionTimes: { idleMs: 1_800_000, absoluteMs: 9 * 3_600_000 },
    });
    expect(
      envOf({
        USER_LOOKUPS_PER_MINUTE_STAFF: "10",
        USER_LOOKUPS_PER_MINUTE_FLEET: "2000",
        USER_LOOKUPS_PER_MINUTE_ADMIN: "1000",
      }).userLimits,
    ).toEqual({ staff: 10, fleet: 2000, admin: 1000 });
    // A role that runs fleets sends up to 1,000 registrations a request: less could never fit.
    expect(
      errorsOf({
        USER_LOOKUPS_PER_MINUTE_FLEET: "999",
        USER_LOOKUPS_PER_MINUTE_ADMIN: "20",
        UPSTREAM_API_KEY: KEY,
      }),
    ).toEqual([
      "USER_LOOKUPS_PER_MINUTE_FLEET: must be at least 1,000, the most registrations one fleet request may carry",
      "USER_LOOKUPS_PER_MINUTE_ADMIN: must be at least 1,000, the most registrations one fleet request may carry",
    ]);
    expect(
      errorsOf({ SESSION_MAX_HOURS: "0", UPSTREAM_API_KEY: KEY }).join(),
    ).toMatch(/SESSION_MAX_HOURS/);
  });

  it.each([
    ["a path", "https://vics.example.org/app"],
    ["a query", "https://vics.example.org/?a=1"],
    ["credentials", "https://user:pw@vics.example.org"],
    ["another scheme", "ftp://vics.example.org"],
    ["no scheme", "vics.example.org"],
  ])("refuses a PUBLIC_ORIGIN with %s", (_case, origin) => {
    const errors = errorsOf({ PUBLIC_ORIGIN: origin, UPSTREAM_API_KEY: KEY });
    expect(errors.join("\n")).toMatch(/^PUBLIC_ORIGIN: must be/);
  });

  it("keeps a PUBLIC_ORIGIN on loopback too (behind a reverse proxy on this machine)", () => {
    const result = parseEnv({
      PUBLIC_ORIGIN: "http://127.0.0.1:8080",
      UPSTREAM_API_KEY: KEY,
    });
    expect(result.ok && result.env.publicOrigin).toBe("http://127.0.0.1:8080");
  });

  it("remembers the key file (to read it again on SIGHUP) and takes SHUTDOWN_GRACE_MS", () => {
    const file = keyFile(KEY);
    const result = parseEnv({
      UPSTREAM_API_KEY_FILE: relative(REPO_ROOT, file),
      SHUTDOWN_GRACE_MS: "250",
    });
    expect(result.ok && result.env).toMatchObject({
      apiKeyFile: file,
      shutdownGraceMs: 250,
    });
  });

  it("says a bad PORT or PUBLIC_ORIGIN once, though both the gateway and the store read them", () => {
    const errors = errorsOf({
      PORT: "eighty",
      PUBLIC_ORIGIN: "not an origin",
      UPSTREAM_API_KEY: KEY,
    });
    expect(errors.filter((error) => error.startsWith("PORT:"))).toHaveLength(1);
    expect(
      errors.filter((error) => error.startsWith("PUBLIC_ORIGIN:")),
    ).toHaveLength(1);
  });

  it("refuses a time-out too long for a timer, which would fire at once", () => {
    const errors = errorsOf({
      UPSTREAM_TIMEOUT_MS: "2147483648",
      UPSTREAM_API_KEY: KEY,
    });
    expect(errors.join("\n")).toMatch(
      /UPSTREAM_TIMEOUT_MS: must be at most 2147483647/,
    );
  });

  it("reports every bad variable at once, and never the key", () => {
    const errors = errorsOf({
      HOST: "10.0.0.5",
      PUBLIC_ORIGIN: "http://10.0.0.5:3000",
      PORT: "eighty",
      UPSTREAM_URL: "ftp://files.example",
      UPSTREAM_TIMEOUT_MS: "-5",
      LOG_LEVEL: "chatty",
      UPSTREAM_API_KEY: `${KEY} oops`,
    });
    const text = errors.join("\n");
    for (const name of [
      "PORT",
      "UPSTREAM_URL",
      "UPSTREAM_TIMEOUT_MS",
      "LOG_LEVEL",
      "HOST",
    ])
      expect(text).toContain(name);
    expect(text).toMatch(/cannot be sent in a header/);
    expect(errors).toHaveLength(6);
    expect(text).not.toContain(KEY);
  });
});

describe("the proxy's store in the environment", () => {
  it("is the SQLite file unless DATABASE_URL names a PostgreSQL database", () => {
    expect(envOf({}).store).toMatchObject({
      databasePath: resolve(REPO_ROOT, "data/proxy.sqlite"),
      databaseUrl: undefined,
      migrationDatabaseUrl: undefined,
    });
    expect(
      envOf({
        DATABASE_URL: "postgres://vics_app:secret@db.internal:5432/vics",
        MIGRATION_DATABASE_URL: "postgresql://vics_owner@db.internal/vics",
      }).store,
    ).toMatchObject({
      databaseUrl: "postgres://vics_app:secret@db.internal:5432/vics",
      migrationDatabaseUrl: "postgresql://vics_owner@db.internal/vics",
    });
  });

  it("refuses a DATABASE_URL that is not PostgreSQL's, and an owner's URL alone, without echoing a password", () => {
    const text = errorsOf({
      UPSTREAM_API_KEY: KEY,
      DATABASE_URL: "mysql://vics:secret@db.internal/vics",
    }).join("\n");
    expect(text).toMatch(
      /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\//,
    );
    expect(text).not.toContain("secret");
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        MIGRATION_DATABASE_URL: "postgres://vics_owner@db.internal/vics",
      }).join("\n"),
    ).toMatch(/MIGRATION_DATABASE_URL needs DATABASE_URL/);
  });
});

describe("the re-checks' own key", () => {
  const WATCH = "vics_watch_test_key_9z8y7x";
  it("is off unless set, and read from WATCH_API_KEY or WATCH_API_KEY_FILE", () => {
    expect(envOf({}).watchApiKey).toBeUndefined();
    expect(envOf({ WATCH_API_KEY: WATCH }).watchApiKey).toBe(WATCH);
    expect(
      envOf({ WATCH_API_KEY_FILE: keyFile(`${WATCH}\n`) }).watchApiKey,
    ).toBe(WATCH);
  });

  it("refuses both at once, an empty file and a short key, naming the variable, never the key", () => {
    const file = keyFile(WATCH);
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        WATCH_API_KEY: WATCH,
        WATCH_API_KEY_FILE: file,
      }),
    ).toContain("set only one of WATCH_API_KEY and WATCH_API_KEY_FILE");
    expect(
      errorsOf({ UPSTREAM_API_KEY: KEY, WATCH_API_KEY_FILE: keyFile("") }),
    ).toEqual([expect.stringMatching(/^WATCH_API_KEY_FILE: .* is empty$/)]);
    const short = errorsOf({ UPSTREAM_API_KEY: KEY, WATCH_API_KEY: "abc" });
    expect(short).toEqual([
      expect.stringMatching(/^WATCH_API_KEY: the API key is too short/),
    ]);
    expect(short.join()).not.toContain("abc");
  });
});

describe("alert emails' SMTP server", () => {
  const FROM = "VICS <vics@fleet.example>";
  it("is off unless set, and read from ALERT_SMTP_URL or ALERT_SMTP_URL_FILE with ALERT_MAIL_FROM", () => {
    expect(envOf({}).alertMail).toBeUndefined();
    expect(
      envOf({ ALERT_SMTP_URL: "smtp://mail.example:25", ALERT_MAIL_FROM: FROM })
        .alertMail,
    ).toEqual({ smtpUrl: "smtp://mail.example:25", from: FROM });
    const secret = "smtps://vics:s3cret@mail.example:465";
    expect(
      envOf({
        ALERT_SMTP_URL_FILE: keyFile(`${secret}\n`),
        ALERT_MAIL_FROM: FROM,
      }).alertMail,
    ).toEqual({ smtpUrl: secret, from: FROM });
  });

  it("refuses both at once, a URL that is not SMTP, or no sender, never echoing a password", () => {
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        ALERT_SMTP_URL: "smtp://mail.example",
        ALERT_SMTP_URL_FILE: keyFile("smtp://mail.example"),
        ALERT_MAIL_FROM: FROM,
      }),
    ).toEqual(["set only one of ALERT_SMTP_URL and ALERT_SMTP_URL_FILE"]);
    const notSmtp = errorsOf({
      UPSTREAM_API_KEY: KEY,
      ALERT_SMTP_URL: "https://vics:s3cret@mail.example",
      ALERT_MAIL_FROM: FROM,
    });
    expect(notSmtp).toEqual([expect.stringMatching(/^ALERT_SMTP_URL: /)]);
    expect(notSmtp.join()).not.toContain("s3cret");
    expect(
      errorsOf({
        UPSTREAM_API_KEY: KEY,
        ALERT_SMTP_URL: "smtp://mail.example",
      }),
    ).toEqual([expect.stringMatching(/needs ALERT_MAIL_FROM/)]);
  });
});
