// The address `npm start` prints for the app: the one a browser can open.
import type { StartEnv } from "./env.ts";

/**
 * PUBLIC_ORIGIN when it is set: the proxy then answers only that name (421 to any other, the
 * loopback address too). Else the address the proxy listens on, with 127.0.0.1 for a HOST that
 * means every interface.
 */
export function appUrl(
  env: Pick<StartEnv, "host" | "port" | "publicOrigin">,
): string {
  if (env.publicOrigin) return new URL("/", env.publicOrigin).href;
  const browsable = ["0.0.0.0", "::"].includes(env.host)
    ? "127.0.0.1"
    : env.host.includes(":")
      ? `[${env.host}]`
      : env.host;
  return `http://${browsable}:${env.port}/`;
}
