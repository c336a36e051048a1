// `npm start` builds the web app when the build is missing or older than its sources, so a
// `git pull` of new web code is never served stale. The build takes about a second.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What the built app is made from, relative to the repository root. Tests are left out. */
export const WEB_SOURCES = [
  "web/src",
  "web/index.html",
  "web/vite.config.ts",
  "web/public",
  "web/package.json",
  "shared/src",
  "fleet/src",
];

const isTest = (name: string) => /\.test\.[cm]?[jt]sx?$/.test(name);

/**
 * Modification times (ms) of every file and folder under the given paths; missing paths add
 * none. Folders count because deleting or renaming a file changes only its folder's time.
 */
export function sourceTimes(root: string, sources = WEB_SOURCES): number[] {
  const times: number[] = [];
  const visit = (path: string) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    times.push(stats.mtimeMs);
    if (!stats.isDirectory()) return;
    for (const entry of readdirSync(path)) {
      if (!isTest(entry)) visit(join(path, entry));
    }
  };
  for (const source of sources) visit(join(root, source));
  return times;
}

/** The rule: build when there is no build, or when any source is newer than it. */
export function webBuildIsStale(
  builtAt: number | undefined,
  sources: readonly number[],
): boolean {
  return builtAt === undefined || sources.some((time) => time > builtAt);
}

export function builtAt(root: string): number | undefined {
  return statSync(join(root, "web/dist/index.html"), { throwIfNoEntry: false })
    ?.mtimeMs;
}

/**
 * Prints "Building the web app... done in 0.9 s." and nothing else; Vite's own output is
 * shown only when the build fails.
 */
export async function buildWebApp(root: string): Promise<void> {
  process.stdout.write("Building the web app...");
  const started = performance.now();
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const build = spawn("npm", ["run", "build", "-w", "@vics/web"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    build.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    build.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    build.on("error", reject);
    build.on("close", resolve);
  });
  if (code !== 0) {
    process.stdout.write(" failed:\n");
    process.stderr.write(Buffer.concat(output));
    throw new Error(`The web app did not build (exit code ${code}).`);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(` done in ${seconds.toFixed(1)} s.\n`);
}
