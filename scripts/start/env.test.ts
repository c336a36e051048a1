import { expect, it } from "vitest";
import { readStartEnv } from "./env.ts";

const metricsPorts = (source: NodeJS.ProcessEnv) => {
  const result = readStartEnv("/repo", source);
  return result.problems ?? result.env.metricsPorts;
};

it("turns metrics on for both servers with METRICS_PORT, the service's on the next port", () => {
  expect(metricsPorts({})).toEqual({});
  expect(metricsPorts({ METRICS_PORT: "" })).toEqual({});
  expect(metricsPorts({ METRICS_PORT: "9464" })).toEqual({
    proxy: 9464,
    service: 9465,
  });
  expect(
    metricsPorts({ METRICS_PORT: "9464", SERVICE_METRICS_PORT: "9500" }),
  ).toEqual({ proxy: 9464, service: 9500 });
  // 0 asks each for a free port, which cannot clash.
  expect(metricsPorts({ METRICS_PORT: "0" })).toEqual({ proxy: 0, service: 0 });
  // The service's alone: the proxy has none.
  expect(metricsPorts({ SERVICE_METRICS_PORT: "9500" })).toEqual({
    service: 9500,
  });
});

it("refuses a metrics port another listener takes, or that is no port, naming both", () => {
  expect(metricsPorts({ METRICS_PORT: "3000" })).toEqual([
    "PORT and METRICS_PORT must differ (both 3000)",
    "SERVICE_PORT and the service's metrics port (METRICS_PORT + 1) must differ (both 3001)",
  ]);
  expect(metricsPorts({ METRICS_PORT: "3000", PORT: "8080" })).toEqual([
    "SERVICE_PORT and the service's metrics port (METRICS_PORT + 1) must differ (both 3001)",
  ]);
  expect(
    metricsPorts({ METRICS_PORT: "9464", SERVICE_METRICS_PORT: "9464" }),
  ).toEqual(["METRICS_PORT and SERVICE_METRICS_PORT must differ (both 9464)"]);
  for (const bad of ["nine", "1e4", " 9464 ", "-1", "65536"])
    expect(metricsPorts({ METRICS_PORT: bad })).toEqual([
      `METRICS_PORT must be a port number from 0 to 65535 (got "${bad}")`,
    ]);
  expect(metricsPorts({ METRICS_PORT: "65535" })).toEqual([
    "METRICS_PORT is 65535: there is no next port for the service's metrics; set SERVICE_METRICS_PORT",
  ]);
  expect(
    metricsPorts({ METRICS_PORT: "65535", SERVICE_METRICS_PORT: "9500" }),
  ).toEqual({ proxy: 65535, service: 9500 });
  expect(metricsPorts({ PORT: "3001" })).toEqual([
    "PORT and SERVICE_PORT must differ (both 3001)",
  ]);
});
