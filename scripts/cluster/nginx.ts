// nginx for `npm run cluster`: a small nginx.conf of the cluster's own (pid, logs and temp files
// in the data folder, in the foreground) that includes the rendered deploy/nginx/vics.conf.
// A replica is drained the way an operator would: marked `down` in the site, then a reload.
import { spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { childPids } from "./child-pids.ts";
import { spawnInGroup, stopChild } from "./process-group.ts";

/** The nginx binary, or undefined where it is not installed. */
export function findNginx(): string | undefined {
  const which = spawnSync("which", ["nginx"], { encoding: "utf8" });
  const path = which.status === 0 ? which.stdout.trim() : "";
  if (path) return path;
  // Debian puts it in /usr/sbin, which a non-root PATH often lacks.
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined;
}

/** `server` lines of an upstream block; a drained replica is `down`. */
export function upstreamServers(
  ports: readonly number[],
  down: ReadonlySet<number> = new Set(),
): string {
  return ports
    .map(
      (port) =>
        `  server 127.0.0.1:${port} max_fails=1 fail_timeout=2s${down.has(port) ? " down" : ""};`,
    )
    .join("\n");
}

/** Debian's table of file types by extension, for the files nginx serves itself. */
const MIME_TYPES = "/etc/nginx/mime.types";

export function mainConfig(directory: string, siteFile: string): string {
  const at = (name: string) => join(directory, name);
  return `worker_processes 2;
pid ${at("nginx.pid")};
error_log ${at("error.log")} warn;
events { worker_connections 4096; }
http {
  include ${MIME_TYPES};
  default_type application/octet-stream;
  # As Debian's nginx.conf has it (gzip on) with its gzip_types line uncommented: the site must
  # compress nothing per request under it (nginx-edge.test.ts).
  gzip on;
  gzip_types application/javascript text/css;
  access_log ${at("access.log")} combined buffer=64k flush=1s;
  client_body_temp_path ${at("client_body")};
  proxy_temp_path ${at("proxy_temp")};
  fastcgi_temp_path ${at("fastcgi_temp")};
  uwsgi_temp_path ${at("uwsgi_temp")};
  scgi_temp_path ${at("scgi_temp")};
  include ${siteFile};
}
`;
}

export class Nginx {
  private child: ChildProcess | undefined;
  private readonly configFile: string;
  private readonly binary: string;
  private readonly directory: string;

  constructor(binary: string, directory: string, siteFile: string) {
    this.binary = binary;
    this.directory = directory;
    mkdirSync(directory, { recursive: true });
    // As root, the workers run as "nobody", which must reach the temp folders here.
    chmodSync(directory, 0o755);
    this.configFile = join(directory, "nginx.conf");
    writeFileSync(this.configFile, mainConfig(directory, siteFile));
  }

  private args(...more: string[]): string[] {
    const errorLog = join(this.directory, "error.log");
    return [
      "-p",
      this.directory,
      "-c",
      this.configFile,
      "-e",
      errorLog,
      ...more,
    ];
  }

  /** Checks the configuration as `nginx -t` does; throws with nginx's words. */
  test(): void {
    const result = spawnSync(this.binary, this.args("-t"), {
      encoding: "utf8",
    });
    if (result.status !== 0)
      throw new Error(`nginx -t refused the configuration:\n${result.stderr}`);
  }

  async start(): Promise<void> {
    this.test();
    // A pid file left by an nginx that was killed would read as this one having started.
    rmSync(join(this.directory, "nginx.pid"), { force: true });
    // Its own process group: Ctrl-C reaches the cluster, which stops nginx first. Whatever
    // happens to the cluster's process (an error it did not catch, process.exit), nginx does
    // not outlive it holding the ports: its whole group, the master and its workers (which hold
    // the listening sockets too), is killed on the way out.
    const child = spawnInGroup(this.binary, this.args("-g", "daemon off;"), {
      stdio: ["ignore", "ignore", "pipe"],
    });
    this.child = child;
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(this.directory, "nginx.pid"))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`nginx did not start:\n${errors}${this.errorLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.waitForWorkers();
  }

  /** Re-reads the site (SIGHUP), and waits until only the new workers are left. */
  async reload(): Promise<void> {
    this.test();
    const before = new Set(this.workers());
    this.child?.kill("SIGHUP");
    const deadline = Date.now() + 30_000;
    // The old workers finish the requests they hold, then exit; new ones take their place.
    while (
      this.workers().some((pid) => before.has(pid)) ||
      this.workers().length === 0
    ) {
      if (Date.now() > deadline)
        throw new Error("nginx's old workers did not finish within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private errorLog(): string {
    const file = join(this.directory, "error.log");
    return existsSync(file) ? readFileSync(file, "utf8").slice(-2000) : "";
  }

  /** The master's process id while it runs (the bench counts its tree's CPU). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The master's worker processes, from /proc. */
  private workers(): number[] {
    const master = this.child?.pid;
    return master === undefined ? [] : childPids(master);
  }

  private async waitForWorkers(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.workers().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** SIGQUIT: graceful shutdown, the requests in flight finish; SIGKILL after 10 s. */
  async stop(): Promise<void> {
    await stopChild(this.child, "SIGQUIT", 10_000);
  }
}
