// The browser app's dependency closure holds no server package (issue 36): the server kit is a
// workspace of its own (@vics/server-kit), so `pg`, `redis`, `pino` and the rest of what the
// servers run on are not among the web app's dependencies, however deep. The closure is read
// from package-lock.json the way npm resolves it: a package's own nested node_modules first,
// then each folder above it, workspaces through their links.
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";

interface Entry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  link?: boolean;
  resolved?: string;
}

const lock = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "package-lock.json"), "utf8"),
) as { packages: Record<string, Entry> };

/** Where npm finds `name` for the package installed at `from`: the nearest node_modules. */
function locate(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = posix.dirname(dir)) {
    const base = dir === "." || dir === "" ? "" : `${dir}/`;
    const candidate = `${base}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (dir === "." || dir === "" || dir === "/") return undefined;
  }
}

/** The names of every package a workspace's production dependencies bring, however deep. */
function closure(workspace: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue = [workspace];
  while (queue.length > 0) {
    const at = queue.pop() as string;
    if (seen.has(at)) continue;
    seen.add(at);
    const entry = lock.packages[at];
    if (!entry) continue;
    if (entry.link && entry.resolved) {
      queue.push(entry.resolved);
      continue;
    }
    for (const name of Object.keys({
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...entry.peerDependencies,
    })) {
      const found = locate(at, name);
      if (!found) continue;
      names.add(name);
      queue.push(found);
    }
  }
  return names;
}

const SERVER_ONLY = ["pg", "redis", "pino", "rate-limiter-flexible", "hono"];

describe("the browser app's dependencies", () => {
  it("hold no server package, however deep", () => {
    const web = closure("web");
    expect(web.has("react")).toBe(true);
    expect(web.has("@vics/shared")).toBe(true);
    expect(SERVER_ONLY.filter((name) => web.has(name))).toEqual([]);
  });

  it("are read the way npm links them: the servers' closures do hold them", () => {
    for (const server of ["service", "proxy"]) {
      const names = closure(server);
      expect(names.has("@vics/server-kit")).toBe(true);
      expect(SERVER_ONLY.filter((name) => !names.has(name))).toEqual([]);
    }
  });
});
