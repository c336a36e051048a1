// Where a server's CPU goes, from a V8 CPU profile (`node --cpu-prof`): each sample's time is
// given to one part of the work (audit append, session read, limits, ...), the first part named
// by walking its stack from the running function outwards, so a library's frames count for the
// code of ours that called them (SQLite under the audit append counts as the audit append).
// Only samples inside a time window count, so the process's start and warm-up are left out.
// Pure, so the split is tested (profile-split.test.ts); proxy-cpu-profile.ts and
// cluster-cpu-profile.ts take the profiles, with the profiler's options below.

/** µs between samples: fine enough for parts of a few µs over thousands of checks. */
export const SAMPLING_INTERVAL_US = 250;

/** The profiler's options for a Node process: its profile goes to `dir` as it exits. */
export const profilerEnv = (dir: string) => ({
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=${SAMPLING_INTERVAL_US}`,
});

/** The clock V8's profile timestamps use (the monotonic clock), in µs. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** The file V8 writes: `samples[i]` ran for `timeDeltas[i + 1]` µs (the next sample's delta). */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A part of the work and how to know its frames: by the script's URL, or V8's own name. */
export interface Part {
  name: string;
  url?: RegExp;
  functionName?: RegExp;
  /**
   * Named only when no other part is found up the stack: a frame that runs under several parts,
   * e.g. a SQLite statement Kysely runs after an await, whose stack then starts at the root.
   */
  fallback?: boolean;
}

/**
 * The proxy's parts, in the order they are asked about a frame. Each alternative of a pattern
 * stands alone (`a|b`, not `(a|b)`), so profile-parts.test.ts can check every one against the
 * tree: a file renamed away from its pattern would move its µs to "other" without a word.
 */
export const PROXY_PARTS: readonly Part[] = [
  { name: "GC", functionName: /^\(garbage collector\)$/ },
  { name: "idle", functionName: /^\(idle\)$/ },
  // Native work V8 cannot put under a JavaScript function (system calls, libuv).
  { name: "native, unattributed", functionName: /^\(program\)$/ },
  {
    name: "audit append",
    url: /\/team\/audit\/|audit-queries|audit-group-commit/,
  },
  {
    name: "session read",
    url: /\/team\/auth\/sessions\.ts|\/team\/auth\/session-middleware\.ts|session-queries|hono\/dist\/utils\/cookie/,
  },
  {
    name: "limits",
    url: /\/team\/limits\/|rate-limiter|rate-limit-headers|limit-store/,
  },
  {
    name: "forward and contract parse",
    url: /\/gateway\/(forward|upstream)\/|\/zod\//,
  },
  {
    name: "logging",
    url: /server-kit\/src\/(logger|access-log)|pino|sonic-boom/,
  },
  { name: "edges", url: /\/gateway\/edges\/|secure-headers|request-id/ },
  { name: "upstream client (undici)", url: /\/undici\// },
  { name: "HTTP server", url: /@hono\/node-server|^node:(_)?http|^node:net/ },
  {
    name: "SQLite statements, after an await (session read or audit append)",
    url: /\/kysely\/|node-sqlite-dialect/,
    fallback: true,
  },
];

/**
 * The careful BFF with sessions' parts (bench/floors/), named as the proxy's are, so the two
 * splits can stand side by side: its session read and audit are functions of
 * careful-bff-sessions.ts, its forward the one function that calls undici.
 */
export const FLOOR_PARTS: readonly Part[] = [
  ...PROXY_PARTS.filter(({ url }) => !url),
  { name: "audit append", functionName: /^audit$|^flush$/ },
  { name: "session read", functionName: /^userOf$|^getCookie$/ },
  { name: "logging", url: /floors\/access-log|pino|sonic-boom/ },
  { name: "edges", url: /secure-headers/ },
  { name: "upstream client (undici)", url: /\/undici\// },
  { name: "forward and contract parse", functionName: /^forward$/ },
  { name: "HTTP server", url: /@hono\/node-server|^node:(_)?http|^node:net/ },
];

/** Whether a frame is `part`'s: by its script's URL or its function's name. */
export const matchesPart = (
  part: Part,
  { url, functionName }: { url: string; functionName: string },
) =>
  (part.url?.test(url) ?? false) ||
  (part.functionName?.test(functionName) ?? false);

/** CPU µs of each part over the samples between `fromUs` and `toUs` (the profile's clock). */
export function splitProfile(
  profile: CpuProfile,
  parts: readonly Part[],
  window: { fromUs: number; toUs: number },
): Record<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  // Per node: the part found walking out from it, and the innermost fallback part on the way.
  const found = new Map<number, { part?: string; fallback?: string }>();
  const walk = (id: number): { part?: string; fallback?: string } => {
    const known = found.get(id);
    if (known) return known;
    const { callFrame } = byId.get(id)!;
    const part = parts.find((p) => !p.fallback && matchesPart(p, callFrame));
    const up = parent.get(id);
    const above = part || up === undefined ? {} : walk(up);
    const fallback = parts.find((p) => p.fallback && matchesPart(p, callFrame));
    const result = {
      part: part?.name ?? above.part,
      fallback: fallback?.name ?? above.fallback,
    };
    found.set(id, result);
    return result;
  };
  const nameNode = (id: number): string => {
    const { part, fallback } = walk(id);
    return part ?? fallback ?? "other";
  };
  const split: Record<string, number> = {};
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const ranUs = profile.timeDeltas[i + 1] ?? 0;
    if (at < window.fromUs || at >= window.toUs) return;
    const name = nameNode(id);
    split[name] = (split[name] ?? 0) + ranUs;
  });
  return split;
}

/**
 * Where a frame's own code lives, coarsely: V8's own entries as named ("(garbage collector)"),
 * natives by name ("native writev"),
 * a package by its name (the innermost `node_modules/` in its URL), Node's built-ins by module,
 * and our files by workspace and up to two folders ("service/src/http", "proxy/src/team/store").
 */
export function placeOf({ functionName, url }: CpuProfileNode["callFrame"]) {
  // V8's own entries; else a function with no script: a built-in or a binding (a socket's
  // write, a hash), by its name.
  if (!url)
    return functionName.startsWith("(")
      ? functionName
      : `native ${functionName || "(anonymous)"}`;
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const builtin = /^node:([^/]+)/.exec(url);
  if (builtin) return `node:${builtin[1]}`;
  const ours = /\/([^/]+)\/src\/(.+)$/.exec(url);
  if (!ours) return url;
  const folders = ours[2]!.split("/").slice(0, -1).slice(0, 2);
  return [`${ours[1]}/src`, ...folders].join("/");
}

/** Self time µs by `placeOf` over the samples between `fromUs` and `toUs`. */
export function selfTimeByPlace(
  profile: CpuProfile,
  window: { fromUs: number; toUs: number },
): Record<string, number> {
  const place = new Map(
    profile.nodes.map((node) => [node.id, placeOf(node.callFrame)]),
  );
  const byPlace: Record<string, number> = {};
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window.fromUs || at >= window.toUs) return;
    const name = place.get(id) ?? "?";
    byPlace[name] = (byPlace[name] ?? 0) + (profile.timeDeltas[i + 1] ?? 0);
  });
  return byPlace;
}
