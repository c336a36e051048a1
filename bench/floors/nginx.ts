// The proxy's plainest floor, what a user could run instead of it: nginx as a key-injecting
// reverse proxy with upstream keep-alive, from a generated config in a temp folder (pid, logs
// and temp files all there), in the foreground as the bench's child, with ONE worker whose pid
// the bench reads its CPU from (the child is the master, which serves nothing). Skipped where
// nginx is not installed.
//
// It leaves out everything careful (careful-bff-server.ts): it passes any path under /api/
// upstream and the headers both ways (nginx's hop-by-hop rules aside), adds no security
// headers, and has no sessions, audit, registration check, contract check, timeouts of the
// proxy's, or problem documents of its own.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { API_KEY_HEADER, PROXY_PREFIX } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { startChild, type Child } from "../../scripts/load/children.ts";
import { childPids } from "../../scripts/cluster/child-pids.ts";

export interface NginxSetup {
  /** nginx's prefix folder: the config, pid, logs and temp files live here. */
  directory: string;
  port: number;
  upstreamPort: number;
  key: string;
}

export function nginxConfig(setup: NginxSetup): string {
  const at = (name: string) => join(setup.directory, name);
  // One worker: the bench reads one process's CPU, and the other servers each run one process.
  return `worker_processes 1;
pid ${at("nginx.pid")};
error_log ${at("error.log")} warn;
events { worker_connections 1024; }
http {
  access_log ${at("access.log")} combined buffer=64k;
  client_body_temp_path ${at("client_body")};
  proxy_temp_path ${at("proxy_temp")};
  fastcgi_temp_path ${at("fastcgi_temp")};
  uwsgi_temp_path ${at("uwsgi_temp")};
  scgi_temp_path ${at("scgi_temp")};
  upstream vics_service {
    server 127.0.0.1:${setup.upstreamPort};
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${setup.port};
    # nginx closes a client's connection after 1,000 requests by default; the load generator
    # has its next request on the wire by then and counts a connection error. The VICS proxy
    # sets no such cap, so neither does its floor.
    keepalive_requests 1000000;
    # ${PROXY_PREFIX}/v1/... upstream as /v1/..., the same URLs as the VICS proxy.
    location ${PROXY_PREFIX}/ {
      proxy_pass http://vics_service/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header ${API_KEY_HEADER} "${setup.key}";
    }
  }
}
`;
}

export interface NginxFloor extends Child {
  /** The one worker's pid (the master's child), or undefined when /proc cannot tell. */
  workerPid(): number | undefined;
}

export async function startNginx(options: {
  binary: string;
  directory: string;
  serviceUrl: string;
  key: string;
}): Promise<NginxFloor> {
  const { directory } = options;
  mkdirSync(directory, { recursive: true });
  // Run as root, nginx's workers drop to "nobody", which must reach the temp folders here.
  chmodSync(directory, 0o755);
  const port = await freePort();
  const configPath = join(directory, "nginx.conf");
  writeFileSync(
    configPath,
    nginxConfig({
      directory,
      port,
      upstreamPort: Number(new URL(options.serviceUrl).port),
      key: options.key,
    }),
  );
  const errorLog = join(directory, "error.log");
  const master = await startChild({
    label: "nginx",
    command: options.binary,
    args: [
      "-p",
      directory,
      "-c",
      configPath,
      "-e",
      errorLog,
      "-g",
      "daemon off;",
    ],
    port,
    // nginx answers / with its own 404: enough to know it listens.
    readyPath: "/",
    describeFailure: () =>
      existsSync(errorLog) ? readFileSync(errorLog, "utf8").slice(-2000) : "",
  });
  return {
    ...master,
    workerPid() {
      const { pid } = master.process;
      return pid === undefined ? undefined : childPids(pid)[0];
    },
  };
}
