import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtAt, sourceTimes, webBuildIsStale } from "./web-build.ts";

describe("webBuildIsStale", () => {
  it.each([
    ["no build yet", undefined, [1000], true],
    ["no build and no sources", undefined, [], true],
    ["every source older than the build", 5000, [1000, 4999], false],
    ["a source as old as the build", 5000, [5000], false],
    ["one source newer than the build", 5000, [1000, 5001], true],
  ])("%s: %s", (_case, built, sources, stale) => {
    expect(webBuildIsStale(built, sources)).toBe(stale);
  });
});

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function file(root: string, path: string, seconds: number) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), "x");
  utimesSync(join(root, path), seconds, seconds);
}

/** Sets the time of the folders under web/src and shared/src (creating files changed them). */
function folders(root: string, seconds: number) {
  for (const folder of [
    "web/src",
    "web/src/app",
    "web/src/app/deep",
    "shared/src",
  ])
    utimesSync(join(root, folder), seconds, seconds);
}

describe("sourceTimes and builtAt, on a repository", () => {
  it("reads every web and shared source and folder, not tests, and the build's index.html", () => {
    const root = mkdtempSync(join(tmpdir(), "vics-web-build-"));
    made.push(root);
    expect(builtAt(root)).toBeUndefined();
    file(root, "web/dist/index.html", 100);
    file(root, "web/src/app/deep/page.tsx", 50);
    file(root, "web/index.html", 60);
    file(root, "shared/src/routes.ts", 70);
    file(root, "web/src/app/deep/page.test.tsx", 900);
    file(root, "web/node_modules/x/index.js", 900);
    file(root, "service/src/index.ts", 900);
    folders(root, 40);

    expect(builtAt(root)).toBe(100_000);
    expect(sourceTimes(root).sort()).toEqual([
      40_000, 40_000, 40_000, 40_000, 50_000, 60_000, 70_000,
    ]);
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(false);

    // A pulled change to shared/ changes the app: build again.
    file(root, "shared/src/vehicle.ts", 101);
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(true);
  });

  it("builds again for a change to the fleet engine, which the app runs", () => {
    const root = mkdtempSync(join(tmpdir(), "vics-web-build-"));
    made.push(root);
    file(root, "web/src/app/deep/page.tsx", 50);
    file(root, "shared/src/routes.ts", 50);
    file(root, "fleet/src/engine/fleet-run.ts", 50);
    file(root, "web/dist/index.html", 100);
    utimesSync(join(root, "fleet/src"), 50, 50);
    utimesSync(join(root, "fleet/src/engine"), 50, 50);
    folders(root, 50);
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(false);

    file(root, "fleet/src/engine/fleet-run.ts", 101);
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(true);
  });

  it("counts a deleted source, by its folder's time", () => {
    const root = mkdtempSync(join(tmpdir(), "vics-web-build-"));
    made.push(root);
    file(root, "web/src/app/deep/page.tsx", 50);
    file(root, "shared/src/routes.ts", 50);
    folders(root, 50);
    file(root, "web/dist/index.html", 100);
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(false);

    rmSync(join(root, "web/src/app/deep/page.tsx"));
    expect(webBuildIsStale(builtAt(root), sourceTimes(root))).toBe(true);
  });
});
