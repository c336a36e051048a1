import { describe, expect, it } from "vitest";
import { markdownTable, ratios, serverRows } from "./report.ts";

const figures = {
  hello_rps: 20_000,
  service_rps: 8_000,
  proxy_rps: 6_000,
  nginx_rps: 7_000,
  bulk1000_p50_ms: 25.04,
  seed1m_s: 31.25,
  sqlite_bulk1000_p50_ms: 16,
  postgres_bulk1000_p50_ms: 20,
  sqlite_lookup_p50_ms: 3,
  postgres_lookup_p50_ms: 6,
  cluster_rps: 3_000,
};

describe("ratios", () => {
  it("divides the figures taken in the same run", () => {
    expect(ratios(figures)).toEqual({
      proxy_service_ratio: 0.75,
      proxy_nginx_ratio: 6_000 / 7_000,
      service_hello_ratio: 0.4,
      postgres_sqlite_bulk1000_ratio: 1.25,
      postgres_sqlite_lookup_ratio: 2,
      cluster_proxy_ratio: 0.5,
    });
  });

  it("is null when a side is missing or zero", () => {
    expect(ratios({ proxy_rps: 5, service_rps: 0, nginx_rps: null })).toEqual({
      proxy_service_ratio: null,
      proxy_nginx_ratio: null,
      service_hello_ratio: null,
      postgres_sqlite_bulk1000_ratio: null,
      postgres_sqlite_lookup_ratio: null,
      cluster_proxy_ratio: null,
    });
  });
});

describe("serverRows", () => {
  const rows = serverRows(
    { ...figures, nginx_rps: null },
    { nginx_rps: "skipped: no nginx" },
  );
  const row = (figure: string) => rows.find((each) => each.figure === figure);

  it("formats each figure with its unit and judges it against its target", () => {
    expect(row("seed1m_s")).toEqual({
      figure: "seed1m_s",
      value: "31.3 s",
      target: "≤ 60 s",
      met: true,
    });
    expect(row("bulk1000_p50_ms")).toMatchObject({
      value: "25.0 ms",
      met: false,
    });
    expect(row("service_rps")).toEqual({
      figure: "service_rps",
      value: "8,000 req/s",
      target: undefined,
      met: undefined,
    });
  });

  it("shows the note of a figure not measured, with no verdict", () => {
    expect(row("fleet100k_node_s")).toEqual({
      figure: "fleet100k_node_s",
      value: "not measured",
      target: "≤ 10 s",
    });
    expect(row("nginx_rps")?.value).toBe("skipped: no nginx");
  });

  it("ends with the throughput ratios, information without a target, and the engines' ratio", () => {
    expect(serverRows(figures).slice(-6)).toEqual([
      {
        figure: "proxy_rps / service_rps",
        value: "0.75",
        target: undefined,
        met: undefined,
      },
      {
        figure: "proxy_rps / nginx_rps",
        value: "0.86",
        target: undefined,
        met: undefined,
      },
      {
        figure: "service_rps / hello_rps",
        value: "0.40",
        target: undefined,
        met: undefined,
      },
      {
        figure: "postgres_bulk1000_p50_ms / sqlite_bulk1000_p50_ms",
        value: "1.25",
        target: "≤ 1.5",
        met: true,
      },
      {
        figure: "postgres_lookup_p50_ms / sqlite_lookup_p50_ms",
        value: "2.00",
        target: undefined,
        met: undefined,
      },
      {
        figure: "cluster_rps / proxy_rps",
        value: "0.50",
        target: undefined,
        met: undefined,
      },
    ]);
  });

  it("shows a server's CPU per request with its fastest and slowest round", () => {
    const rows = serverRows({
      service_cpu_us_per_req: 91.4,
      service_cpu_fastest_round_us: 88,
      service_cpu_slowest_round_us: 120.2,
    });
    expect(
      rows.find((each) => each.figure === "service_cpu_us_per_req"),
    ).toEqual({
      figure: "service_cpu_us_per_req",
      value: "91 µs CPU/req (rounds 88-120)",
      target: undefined,
      met: undefined,
    });
  });

  it("judges the cost ratios against their targets, with the rounds' range", () => {
    const rows = serverRows({
      service_minimal_cpu_ratio: 1.42,
      service_minimal_cpu_ratio_lowest_round: 1.3,
      service_minimal_cpu_ratio_highest_round: 1.61,
      proxy_nginx_cpu_ratio: 2.5,
    });
    const row = (figure: string) => rows.find((each) => each.figure === figure);
    expect(
      row("service_cpu_us_per_req / minimal_service_cpu_us_per_req"),
    ).toEqual({
      figure: "service_cpu_us_per_req / minimal_service_cpu_us_per_req",
      value: "1.42 (rounds 1.30-1.61)",
      target: "≤ 1.3",
      met: false,
    });
    expect(row("proxy_cpu_us_per_req / nginx_cpu_us_per_req")).toMatchObject({
      value: "2.50",
      target: undefined,
      met: undefined,
    });
    expect(
      row("proxy_cpu_us_per_req / bff_sessions_cpu_us_per_req"),
    ).toMatchObject({ value: "not measured", target: "≤ 1.2" });
  });

  it("misses an at-most ratio above its target", () => {
    const rows = serverRows({
      postgres_bulk1000_p50_ms: 24.3,
      sqlite_bulk1000_p50_ms: 16,
    });
    expect(
      rows.find(
        (each) =>
          each.figure === "postgres_bulk1000_p50_ms / sqlite_bulk1000_p50_ms",
      ),
    ).toMatchObject({ value: "1.52", target: "≤ 1.5", met: false });
  });

  it("holds PostgreSQL's bulk p50 to 30 ms and SQLite's to 20 ms", () => {
    const rows = serverRows({
      postgres_bulk1000_p50_ms: 24.3,
      sqlite_bulk1000_p50_ms: 21,
    });
    const row = (figure: string) => rows.find((each) => each.figure === figure);
    expect(row("postgres_bulk1000_p50_ms")).toMatchObject({
      target: "≤ 30 ms",
      met: true,
    });
    expect(row("sqlite_bulk1000_p50_ms")).toMatchObject({
      target: "≤ 20 ms",
      met: false,
    });
  });
});

describe("markdownTable", () => {
  it("writes a header and one line per row, a miss in bold", () => {
    expect(
      markdownTable([
        { figure: "a", value: "1 s", target: "≤ 2 s", met: true },
        { figure: "b", value: "3 s", target: "≤ 2 s", met: false },
        { figure: "c", value: "n/a" },
      ]),
    ).toBe(
      [
        "| Figure | Value | Target | Met |",
        "| --- | ---: | --- | --- |",
        "| a | 1 s | ≤ 2 s | yes |",
        "| b | 3 s | ≤ 2 s | **no** |",
        "| c | n/a |  |  |",
      ].join("\n"),
    );
  });
});
