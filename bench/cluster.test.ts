import { describe, expect, it } from "vitest";
import {
  CLUSTER_FIGURES,
  clusterMissing,
  ONE_EACH_FIGURES,
  singleCpuRatio,
  summedCpu,
} from "./cluster.ts";
import { SERVER_FIGURES } from "./report.ts";

describe("summedCpu", () => {
  it("adds the replicas' CPU per request", () => {
    expect(summedCpu({ "service-1": 200, "proxy-2": 300.5 }, 2)).toBe(500.5);
  });

  it("is undefined when no replica's CPU could be read", () => {
    expect(summedCpu({}, 5)).toBeUndefined();
  });

  it("is undefined when some replica's CPU could not be read", () => {
    expect(
      summedCpu({ "service-1": 200, "proxy-2": 300.5 }, 5),
    ).toBeUndefined();
  });
});

describe("singleCpuRatio", () => {
  it("is the cluster's CPU per check over the single stack's proxy and service together", () => {
    expect(singleCpuRatio(852, 322, 104)).toBe(2);
  });

  it("is undefined when any of the three was not measured", () => {
    expect(singleCpuRatio(undefined, 322, 104)).toBeUndefined();
    expect(singleCpuRatio(852, null, 104)).toBeUndefined();
    expect(singleCpuRatio(852, 322, undefined)).toBeUndefined();
    expect(singleCpuRatio(852, 0, 0)).toBeUndefined();
  });
});

describe("the cluster's figures", () => {
  it("are each a row of the table", () => {
    const rows = new Set(SERVER_FIGURES.map(({ key }) => key));
    for (const key of [...CLUSTER_FIGURES, ...ONE_EACH_FIGURES])
      expect(rows).toContain(key);
  });
});

describe("clusterMissing", () => {
  it("names nginx when it is not installed", () => {
    expect(clusterMissing({ nginx: () => undefined })).toBe(
      "nginx is not installed",
    );
  });
});
