// `npm run pages`: Lighthouse (performance and accessibility, desktop preset) on the app's main
// pages as a signed-in fleet user sees them, over the real service and proxy on a fresh
// temporary database. Prints per page the layout shift (CLS), the JavaScript a first load
// fetched but did not run, the bytes transferred and the accessibility score, and writes them
// to bench/results/pages/latest.json and a dated copy, each page's whole Lighthouse report
// beside them. It serves web/dist as built: run `npm run build -w @vics/web` first after
// changing the web app.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";
import { writeResults } from "../bench/results.ts";
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

const directory = join(ROOT, "bench/results/pages");
mkdirSync(directory, { recursive: true });
/**
 * A few checks first, as a person who has used VICS has made: the check pages list them under
 * "Recent checks", which arrives after the page and is what a first visit would not show.
 */
async function earlierChecks(proxyUrl: string, cookie: string) {
  for (const registration of ["AB12CDE", "UN51NSD", "ER19NFD", "ZZ99ZZZ"])
    for (const path of [
      paths.insurance(registration),
      paths.compliance(registration),
    ]) {
      const response = await fetch(new URL(PROXY_PREFIX + path, proxyUrl), {
        headers: { Cookie: cookie, [CLIENT_HEADER]: "pages" },
      });
      await response.body?.cancel();
    }
}

const slug = (page: string) => page.toLowerCase().replaceAll(" ", "-");

const dataDir = mkdtempSync(join(tmpdir(), "vics-pages-"));
const rows: PageFigures[] = [];
try {
  console.log("Starting the service and the proxy on a fresh database...");
  const { proxy, proxyDatabasePath } = await startServers({ dataDir });
  const cookie = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
  await earlierChecks(proxy.url, cookie);
  for (const { page, path } of PAGES) {
    console.log(`Lighthouse: ${page} (${path})...`);
    const report = await lighthouseReport(new URL(path, proxy.url).href, {
      cookie,
      chromePath: chromePath(process.env),
    });
    rows.push(pageFigures(page, path, report));
    // The whole report, for what shifted and which scripts went unused.
    writeFileSync(
      join(directory, `${slug(page)}.lhr.json`),
      JSON.stringify(report),
    );
  }
} finally {
  await stopAllChildren();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\n${figuresTable(rows)}\n`);
const date = new Date();
const [, dated] = writeResults(
  directory,
  { date: date.toISOString(), node: process.version, pages: rows },
  date,
);
console.log(
  `Written to bench/results/pages/latest.json and ${basename(dated!)}, each page's whole report to <page>.lhr.json`,
);

const over = pagesOverTarget(rows);
if (over.length > 0) {
  console.log(
    `CLS at or over ${CLS_TARGET} on: ${over.map((row) => row.path).join(", ")}`,
  );
  process.exitCode = 1;
}
