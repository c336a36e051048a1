import { describe, expect, it } from "vitest";
import {
  placeOf,
  selfTimeByPlace,
  splitProfile,
  type CpuProfile,
  type Part,
} from "./profile-split.ts";

const PARTS: Part[] = [
  { name: "GC", functionName: /^\(garbage collector\)$/ },
  { name: "audit append", url: /\/team\/audit\// },
  { name: "SQLite", url: /\/kysely\//, fallback: true },
];

// root -> hono -> audit-log -> sqlite (a library frame); root -> (garbage collector).
const profile: CpuProfile = {
  nodes: [
    {
      id: 1,
      callFrame: { functionName: "(root)", url: "" },
      children: [2, 5, 6],
    },
    {
      id: 2,
      callFrame: {
        functionName: "dispatch",
        url: "file:///n/hono/dist/compose.js",
      },
      children: [3],
    },
    {
      id: 3,
      callFrame: {
        functionName: "recordAudit",
        url: "file:///w/proxy/src/team/audit/audit-log.ts",
      },
      children: [4],
    },
    { id: 4, callFrame: { functionName: "run", url: "" } },
    { id: 5, callFrame: { functionName: "(garbage collector)", url: "" } },
    // A statement run after an await: its stack starts at the root.
    {
      id: 6,
      callFrame: {
        functionName: "executeQuery",
        url: "file:///n/kysely/dist/q.js",
      },
      children: [7],
    },
    { id: 7, callFrame: { functionName: "run", url: "" } },
  ],
  startTime: 1_000,
  endTime: 1_100,
  samples: [4, 2, 5, 4, 4],
  // Sample times 1010, 1020, 1040, 1050, 1080; each ran until the next one.
  timeDeltas: [10, 10, 20, 10, 30, 0],
};

describe("splitting a CPU profile into the proxy's parts", () => {
  it("gives a library frame's time to the part of ours that called it", () => {
    const split = splitProfile(profile, PARTS, { fromUs: 0, toUs: 2_000 });
    expect(split).toEqual({ "audit append": 10 + 30 + 0, other: 20, GC: 10 });
  });

  it("names a fallback part only where no other part is found up the stack", () => {
    const withStatement: CpuProfile = {
      ...profile,
      samples: [7, 4],
      timeDeltas: [10, 5, 7],
    };
    const split = splitProfile(withStatement, PARTS, {
      fromUs: 0,
      toUs: 2_000,
    });
    expect(split).toEqual({ SQLite: 5, "audit append": 7 });
  });

  it("counts only the samples inside the window", () => {
    const split = splitProfile(profile, PARTS, { fromUs: 1_030, toUs: 1_060 });
    expect(split).toEqual({ GC: 10, "audit append": 30 });
  });
});

describe("a profile's self time by place", () => {
  it("names V8's entries, packages, Node's modules and our folders", () => {
    expect(
      [
        { functionName: "(garbage collector)", url: "" },
        { functionName: "JSONParse", url: "" },
        { functionName: "x", url: "file:///w/node_modules/pg/lib/client.js" },
        {
          functionName: "x",
          url: "file:///w/node_modules/@hono/node-server/dist/index.mjs",
        },
        { functionName: "x", url: "node:internal/streams/readable" },
        { functionName: "x", url: "node:net" },
        { functionName: "x", url: "file:///w/service/src/http/edge.ts" },
        { functionName: "x", url: "file:///w/service/src/app.ts" },
        {
          functionName: "x",
          url: "file:///w/proxy/src/team/store/kysely/precompiled.ts",
        },
      ].map(placeOf),
    ).toEqual([
      "(garbage collector)",
      "native JSONParse",
      "pg",
      "@hono/node-server",
      "node:internal",
      "node:net",
      "service/src/http",
      "service/src",
      "proxy/src/team/store",
    ]);
  });

  it("sums each sample's time where its own frame lives, inside the window", () => {
    expect(selfTimeByPlace(profile, { fromUs: 1_015, toUs: 2_000 })).toEqual({
      // Samples at 1020 (node 2: no package or folder of ours, so its URL), 1040 (GC), 1050
      // and 1080 (node 4, an unnamed "run").
      "file:///n/hono/dist/compose.js": 20,
      "(garbage collector)": 10,
      "native run": 30 + 0,
    });
  });
});
