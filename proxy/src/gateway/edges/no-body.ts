import type { AppContext } from "../http/app-env.ts";
import { EDGE_PROBLEMS } from "./edge-problems.ts";

/** Whether a request says it carries a body: any Transfer-Encoding, or a length above 0. */
function declaresBody(c: AppContext): boolean {
  if (c.req.header("Transfer-Encoding") !== undefined) return true;
  const length = c.req.header("Content-Length");
  return length !== undefined && !/^\s*0*\s*$/.test(length);
}

/**
 * The body limit of every route but the bulk checks (which have their own, 64 KiB): none at
 * all. A GET with a body is refused (413) before any of it is read, never forwarded. A check
 * that throws, not a middleware: the edges run as one middleware (edges.ts).
 */
export function noBodyExcept(
  takesBody: (c: AppContext) => boolean,
): (c: AppContext) => void {
  return (c) => {
    if (declaresBody(c) && !takesBody(c)) throw EDGE_PROBLEMS.bodyNotAccepted();
  };
}
