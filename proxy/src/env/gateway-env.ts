// The gateway's variables: where it listens, the vehicle service it forwards to, the address
// browsers use, the web app's files, and what every server reads (SERVER_ENV_SHAPE).
import { z } from "zod";
import {
  hostField,
  positiveWholeNumber,
  portField,
  SERVER_ENV_SHAPE,
  wholeNumberOrUnset,
} from "@vics/server-kit/env-fields";
import { fromRoot } from "./paths.ts";

/** The origin browsers use, e.g. https://vics.example.org (Host and Origin checks, links). */
export const publicOriginField = z
  .url({
    protocol: /^https?$/,
    error: "must be an http(s) origin, e.g. https://vics.example.org",
  })
  .refine(
    (value) => {
      // Runs after a failed URL check too: that one has said what is wrong.
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return (
        url.pathname === "/" &&
        !url.search &&
        !url.hash &&
        !url.username &&
        !url.password
      );
    },
    {
      error:
        "must be an origin only: scheme, host and port, no path (e.g. https://vics.example.org)",
    },
  )
  .transform((value) => new URL(value).origin)
  .optional();

export const proxyPortField = portField(3000);

export const GATEWAY_ENV_SHAPE = {
  HOST: hostField,
  PORT: proxyPortField,
  UPSTREAM_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("http://127.0.0.1:3001"),
  // Node runs a longer timer after 1 ms, which would make every call a 504.
  UPSTREAM_TIMEOUT_MS: positiveWholeNumber(10000),
  // Unset: as long as an upstream call may take, and a second to answer it.
  SHUTDOWN_GRACE_MS: wholeNumberOrUnset({ min: 0 }),
  PUBLIC_ORIGIN: publicOriginField,
  WEB_DIST: z.string().default("web/dist").transform(fromRoot),
  ...SERVER_ENV_SHAPE,
};

export function publicOriginError(host: string): string {
  return (
    `HOST=${host} also needs PUBLIC_ORIGIN, the https address browsers use for VICS (e.g. https://vics.example.org): ` +
    "beyond this machine, session cookies and passwords travel only over https, and the proxy answers only " +
    "requests for that host, so a page on another name that resolves to it (DNS rebinding) cannot reach it. " +
    "TLS may end at a load balancer named in TRUSTED_PROXIES."
  );
}
