// `scripts/node24 node scripts/deploy-render.ts <values-file> <out-dir>`: the deploy/ files
// rendered with a team's own values (deploy/values.example.env), ready to install as
// docs/deployment.md says. `npm run cluster` renders the same files with its own values.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderDeploy } from "./cluster/render.ts";
import { parseEnvironmentFile } from "./cluster/units.ts";

const [valuesFile, outDir] = process.argv.slice(2);
if (!valuesFile || !outDir) {
  console.error(
    "Usage: scripts/node24 node scripts/deploy-render.ts <values-file> <out-dir>",
  );
  process.exit(2);
}
try {
  const values = Object.fromEntries(
    Object.entries(parseEnvironmentFile(readFileSync(valuesFile, "utf8"))).map(
      // One line a value: "\n" in a value (the upstream server lists) is a new line.
      ([name, value]) => [name, value.replaceAll("\\n", "\n")],
    ),
  );
  const written = renderDeploy(
    resolve(import.meta.dirname, "../deploy"),
    resolve(outDir),
    values,
  );
  for (const file of Object.values(written)) console.log(file);
} catch (error) {
  console.error(
    `deploy-render: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
