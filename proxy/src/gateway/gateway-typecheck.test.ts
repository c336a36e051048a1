// The gateway's own typecheck (tsconfig.gateway.json, run by `npm run typecheck`) compiles it
// without the team's declarations (decision 064): a probe shows that there the gateway reads only
// an Asker and none of the team's request variables.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const configPath = fileURLToPath(
  new URL("../../tsconfig.gateway.json", import.meta.url),
);
const appEnvPath = fileURLToPath(new URL("./http/app-env.ts", import.meta.url));

/** The errors the gateway's program finds in a probe file that imports the app's context typing. */
function probeErrors(body: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(
        ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
      );
    },
  });
  if (config === undefined) throw new Error("tsconfig.gateway.json unread");
  const probe = join(
    mkdtempSync(join(tmpdir(), "gateway-probe-")),
    "probe.mts",
  ); // .mts: an ES module outside any package.json
  const appEnv = relative(dirname(probe), appEnvPath);
  writeFileSync(
    probe,
    `import type { AppContext } from ${JSON.stringify(appEnv)};\n${body}\n`,
  );
  const program = ts.createProgram(
    [...config.fileNames, probe],
    config.options,
  );
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probe))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

test("in the gateway's own program the signed-in user is only an Asker", () => {
  expect(
    probeErrors(
      `export const id = (c: AppContext) => c.get("user")?.id;\n` +
        `export const email = (c: AppContext) => c.get("user")?.email;`,
    ),
  ).toEqual([expect.stringMatching(/'email' does not exist on type 'Asker'/)]);
});

test("in the gateway's own program the team's request variables are absent", () => {
  const errors = probeErrors(
    `export const session = (c: AppContext) => c.get("sessionId");`,
  );
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`"sessionId"`);
});
