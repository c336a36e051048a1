import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "./render.ts";
import { parseEnvironmentFile, readUnit } from "./units.ts";

const deploy = join(import.meta.dirname, "../../deploy");

describe("parseEnvironmentFile", () => {
  it("reads KEY=value lines, skipping comments and blank lines, keeping = in values", () => {
    expect(
      parseEnvironmentFile("# a comment\n\nA=1\nURL=postgres://u:p@h/db?x=y\n"),
    ).toEqual({ A: "1", URL: "postgres://u:p@h/db?x=y" });
  });

  it("refuses a line that is not KEY=value, naming it", () => {
    expect(() => parseEnvironmentFile("A=1\nexport B=2\n")).toThrow(
      /line 2: not KEY=value: export B=2/,
    );
  });
});

describe("readUnit", () => {
  const rendered = renderTemplate(
    readFileSync(join(deploy, "systemd/vics-service@.service"), "utf8"),
    { APP_DIR: "/opt/vics", ETC_DIR: "/etc/vics", NODE: "/usr/bin/node" },
  );

  it("starts the service unit's command in its folder with %i as its port", () => {
    const unit = readUnit(rendered, "3101", (path) => {
      expect(path).toBe("/etc/vics/service.env");
      return "DATABASE_URL=postgres://x\nHOST=127.0.0.1\n";
    });
    expect(unit).toEqual({
      command: "/usr/bin/node",
      args: ["service/src/index.ts"],
      cwd: "/opt/vics",
      env: {
        PORT: "3101",
        DATABASE_URL: "postgres://x",
        HOST: "127.0.0.1",
      },
      restartOnFailure: true,
      restartSeconds: 2,
    });
  });

  it("lets the environment file override Environment=, as systemd does", () => {
    const unit = readUnit(rendered, "3101", () => "PORT=9999\n");
    expect(unit.env.PORT).toBe("9999");
  });

  it.each(["vics-service@.service", "vics-proxy@.service"])(
    "%s creates every file for the vics user alone (UMask=0077)",
    (unit) => {
      const text = readFileSync(join(deploy, "systemd", unit), "utf8");
      const service = text.split(/^\[Service\]$/m)[1]!.split(/^\[/m)[0]!;
      expect(service).toMatch(/^UMask=0077$/m);
    },
  );

  it("refuses a unit without ExecStart", () => {
    expect(() => readUnit("[Service]\nWorkingDirectory=/x\n", "1")).toThrow(
      /no ExecStart/,
    );
  });
});
