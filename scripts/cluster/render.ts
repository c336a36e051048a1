// The files of deploy/ are templates: `{{NAME}}` marks a value of the machine they go on.
// `npm run cluster` renders them with its own values and runs what they say, so the files a
// team installs are the files the cluster tests.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const PLACEHOLDER = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;

/** Every `{{NAME}}` replaced; a name without a value is an error, never an empty string. */
export function renderTemplate(
  text: string,
  values: Readonly<Record<string, string>>,
): string {
  const missing = new Set<string>();
  const rendered = text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) missing.add(name);
    return value ?? "";
  });
  if (missing.size > 0)
    throw new Error(`No value for ${[...missing].join(", ")}`);
  return rendered;
}

/** The placeholders a template uses, for the docs' table and its test. */
export function placeholders(text: string): string[] {
  return [
    ...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)),
  ].sort();
}

/** The deploy/ files, by their path under deploy/. */
export const DEPLOY_FILES = [
  "systemd/vics-service@.service",
  "systemd/vics-proxy@.service",
  "nginx/vics.conf",
  "env/service.env",
  "env/proxy.env",
] as const;

export type DeployFile = (typeof DEPLOY_FILES)[number];

/** Renders every deploy/ file into `outDir` (same paths); returns where each went. */
export function renderDeploy(
  deployDir: string,
  outDir: string,
  values: Readonly<Record<string, string>>,
): Record<DeployFile, string> {
  const written = {} as Record<DeployFile, string>;
  for (const file of DEPLOY_FILES) {
    const target = join(outDir, file);
    mkdirSync(dirname(target), { recursive: true });
    // 0600: the env files hold database passwords.
    writeFileSync(
      target,
      renderTemplate(readFileSync(join(deployDir, file), "utf8"), values),
      { mode: 0o600 },
    );
    written[file] = target;
  }
  return written;
}
