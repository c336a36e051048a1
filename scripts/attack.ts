// `npm run attack [-- --quick] [name ...]`: runs the attack scenarios in scripts/attack/ (every
// .ts there that is not a test), or only those named, one after another, each against its own
// real stack on loopback. Each prints what it measured; the run exits 1 if any is not ok.
// A scenario module exports `name` and `run({ quick })`, resolving to `{ lines, ok }`.
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { stopAllChildren } from "./load/children.ts";

export interface AttackScenario {
  name: string;
  run(options: { quick: boolean }): Promise<{ lines: string[]; ok: boolean }>;
}

const { values, positionals } = parseArgs({
  options: { quick: { type: "boolean", default: false } },
  allowPositionals: true,
});

const folder = join(import.meta.dirname, "attack");
const files = readdirSync(folder)
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .sort();
const scenarios: AttackScenario[] = [];
for (const file of files) {
  const module = (await import(
    pathToFileURL(join(folder, file)).href
  )) as AttackScenario;
  const wanted =
    positionals.length === 0 ||
    positionals.includes(module.name) ||
    positionals.includes(basename(file, ".ts"));
  if (wanted) scenarios.push(module);
}
const names = files.map((file) => basename(file, ".ts"));
const unknown = positionals.filter(
  (name) =>
    !names.includes(name) &&
    !scenarios.some((scenario) => scenario.name === name),
);
if (unknown.length > 0 || scenarios.length === 0) {
  console.error(
    `No attack scenario named ${unknown.join(", ") || "(none)"}. There are: ${names.join(", ")}.`,
  );
  process.exit(2);
}

const stop = () => void stopAllChildren().then(() => process.exit(130));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

let failed = 0;
for (const scenario of scenarios) {
  console.log(`\n== ${scenario.name}${values.quick ? " (quick)" : ""}`);
  try {
    const { lines, ok } = await scenario.run({ quick: values.quick });
    for (const line of lines) console.log(line);
    console.log(ok ? "ok" : "NOT OK");
    if (!ok) failed += 1;
  } catch (error) {
    failed += 1;
    console.log(`NOT OK: ${error instanceof Error ? error.message : error}`);
  } finally {
    await stopAllChildren();
  }
}
process.exit(failed > 0 ? 1 : 0);
