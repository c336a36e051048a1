// What a server allocates, by part of the work, from V8's sampling heap profile (the
// HeapProfiler's tree: each node a call frame, its selfSize the bytes sampled as allocated
// there). Each node's bytes go to the part named nearest to it on its stack, the way
// profile-split.ts gives a CPU sample to one part (a library's allocations count for the code of
// ours that called it); a fallback part only when no other is found. Pure, so the split is
// tested (allocation-split.test.ts); server-allocation.ts takes the profiles.
import { matchesPart, placeOf, type Part } from "./profile-split.ts";

/** A node of HeapProfiler.SamplingHeapProfile's tree. */
export interface AllocationNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes by part over the whole tree; "other" where no part is named on the stack. */
export function splitAllocation(
  head: AllocationNode,
  parts: readonly Part[],
): Record<string, number> {
  const split: Record<string, number> = {};
  const visit = (
    node: AllocationNode,
    outer: { part?: string; fallback?: string },
  ) => {
    const part = parts.find(
      (p) => !p.fallback && matchesPart(p, node.callFrame),
    );
    const fallback = parts.find(
      (p) => p.fallback && matchesPart(p, node.callFrame),
    );
    const here = {
      part: part?.name ?? outer.part,
      fallback: fallback?.name ?? outer.fallback,
    };
    const name = here.part ?? here.fallback ?? "other";
    if (node.selfSize > 0) split[name] = (split[name] ?? 0) + node.selfSize;
    for (const child of node.children) visit(child, here);
  };
  visit(head, {});
  return split;
}

/** Bytes by the place of the function that allocated them (placeOf), stack ignored. */
export function allocationByPlace(
  head: AllocationNode,
): Record<string, number> {
  const byPlace: Record<string, number> = {};
  const visit = (node: AllocationNode) => {
    if (node.selfSize > 0) {
      const place = placeOf(node.callFrame);
      byPlace[place] = (byPlace[place] ?? 0) + node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  return byPlace;
}
