// `npm run pages`: Lighthouse (performance and accessibility, desktop preset) on the app's main
// pages as a signed-in fleet user sees them, over the real service and proxy on a fresh
// temporary database. Prints per page the layout shift (CLS), the JavaScript a first load
// fetched but did not run, the bytes transferred and the accessibility score, and writes them
// to bench/results/pages/latest.json and a dated copy. It serves web/dist as built: run
// `npm run build -w @vics/web` first after changing the web app.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { signedInCookie, startServers } from "./load/stack.ts";
import { stopAllChildren } from "./load/children.ts";
import {
  CLS_TARGET,
  figuresTable,
  pageFigures,
  pagesOverTarget,
  type PageFigures,
} from "./pages/figures.ts";
import { chromePath, lighthouseReport } from "./pages/lighthouse.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** The pages issue 34 measured; AB12CDE is insured and compliant in the seeded data. */
const PAGES = [
  { page: "Insurance check", path: "/" },
  { page: "Vehicle", path: "/vehicle/AB12CDE" },
  { page: "Compliance check", path: "/compliance" },
  { page: "Fleet check", path: "/fleet" },
];

if (!existsSync(join(ROOT, "web/dist/index.html"))) {
  console.error("No web/dist: run `npm run build -w @vics/web` first.");
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), "vics-pages-"));
const rows: PageFigures[] = [];
try {
  console.log("Starting the service and the proxy on a fresh database...");
  const { proxy, proxyDatabasePath } = await startServers({ dataDir });
  const cookie = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
  for (const { page, path } of PAGES) {
    console.log(`Lighthouse: ${page} (${path})...`);
    const report = await lighthouseReport(new URL(path, proxy.url).href, {
      cookie,
      chromePath: chromePath(process.env),
    });
    rows.push(pageFigures(page, path, report));
  }
} finally {
  await stopAllChildren();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\n${figuresTable(rows)}\n`);
const date = new Date();
const directory = join(ROOT, "bench/results/pages");
mkdirSync(directory, { recursive: true });
const text = `${JSON.stringify({ date: date.toISOString(), node: process.version, pages: rows }, null, 2)}\n`;
const stamp = date.toISOString().slice(0, 16).replace(":", "");
for (const file of ["latest.json", `${stamp}.json`])
  writeFileSync(join(directory, file), text);
console.log(`Written to bench/results/pages/latest.json and ${stamp}.json`);

const over = pagesOverTarget(rows);
if (over.length > 0) {
  console.log(
    `CLS at or over ${CLS_TARGET} on: ${over.map((row) => row.path).join(", ")}`,
  );
  process.exitCode = 1;
}
