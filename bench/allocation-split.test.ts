import { describe, expect, it } from "vitest";
import {
  allocationByPlace,
  splitAllocation,
  type AllocationNode,
} from "./allocation-split.ts";
import type { Part } from "./profile-split.ts";

const node = (
  functionName: string,
  url: string,
  selfSize: number,
  children: AllocationNode[] = [],
): AllocationNode => ({ callFrame: { functionName, url }, selfSize, children });

const PARTS: readonly Part[] = [
  { name: "audit append", url: /\/team\/audit\// },
  { name: "HTTP server", url: /^node:_http/ },
  { name: "SQLite, after an await", url: /\/kysely\//, fallback: true },
];

// (root) > parserOnIncoming (node:_http_server) > recordAudit (team/audit) > compile (kysely)
// and a Kysely frame with no part above it.
const TREE = node("(root)", "", 0, [
  node("parserOnIncoming", "node:_http_server", 100, [
    node("recordAudit", "file:///r/proxy/src/team/audit/record.ts", 40, [
      node("compile", "file:///r/node_modules/kysely/dist/q.js", 30),
    ]),
  ]),
  node("run", "file:///r/node_modules/kysely/dist/run.js", 20, [
    node("parse", "file:///r/node_modules/zod/v4/p.js", 5),
  ]),
  node("tick", "node:internal/process/task_queues", 7),
]);

describe("splitAllocation", () => {
  it("gives each node's bytes to the part nearest it on its stack, a fallback only when none", () => {
    expect(splitAllocation(TREE, PARTS)).toEqual({
      "HTTP server": 100,
      // Its own 40 and Kysely's 30 under it: the inner part wins over the HTTP server's.
      "audit append": 70,
      "SQLite, after an await": 25,
      other: 7,
    });
  });

  it("adds up to the tree's bytes", () => {
    const total = Object.values(splitAllocation(TREE, PARTS)).reduce(
      (sum, bytes) => sum + bytes,
      0,
    );
    expect(total).toBe(202);
  });
});

describe("allocationByPlace", () => {
  it("gives each node's bytes to its own function's place", () => {
    expect(allocationByPlace(TREE)).toEqual({
      "node:_http_server": 100,
      "proxy/src/team/audit": 40,
      kysely: 50,
      zod: 5,
      "node:internal": 7,
    });
  });
});
