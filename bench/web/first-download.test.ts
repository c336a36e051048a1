// What a first visit downloads holds none of zod or the contract's schemas: they load with the
// first answer that needs them (web/src/lib/lazy-schemas.ts), a fifth of the app's weight. A
// zod-free constant of @vics/shared that sits in a module beside schemas (as the notification
// paths did beside the watch schemas) brings the whole module, and zod, into the first download.
// Nor does it hold React Router's data router, about 20 kB the app does not use (decision 046).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../servers.ts";
import { bundleSizes } from "./bundle-size.ts";

/** A class name of zod's core, in any chunk that holds zod. */
const ZOD = "ZodError";
/** A message of React Router's data router (`createRouter`), kept in its production build. */
const DATA_ROUTER = "non-empty routes array to createRouter";

let outDir = "";
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "vics-first-download-"));
  await build({
    root: join(ROOT, "web"),
    configFile: join(ROOT, "web/vite.config.ts"),
    logLevel: "silent",
    build: { outDir, emptyOutDir: true },
  });
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const holds = (marker: string) => (file: string) =>
  readFileSync(join(outDir, file), "utf8").includes(marker);
const holdsZod = holds(ZOD);

it("loads zod only after the first page, never with it", async () => {
  const { initial, lazy } = await bundleSizes(outDir);
  expect(initial.some((asset) => asset.file.endsWith(".js"))).toBe(true);
  expect(
    initial.filter((asset) => holdsZod(asset.file)).map((asset) => asset.file),
  ).toEqual([]);
  // The marker is there to be found: zod is in the app, in a chunk loaded later.
  expect(lazy.some((asset) => holdsZod(asset.file))).toBe(true);
});

it("loads no data router with the first page", async () => {
  const { initial } = await bundleSizes(outDir);
  expect(
    initial
      .filter((asset) => holds(DATA_ROUTER)(asset.file))
      .map((a) => a.file),
  ).toEqual([]);
  // The marker is there to be found: the installed React Router's production build has it.
  const library = dirname(
    createRequire(join(ROOT, "web/package.json")).resolve("react-router"),
  );
  const files = readdirSync(library, { recursive: true, encoding: "utf8" });
  expect(
    files.some(
      (file) =>
        file.endsWith(".js") &&
        readFileSync(join(library, file), "utf8").includes(DATA_ROUTER),
    ),
  ).toBe(true);
});
