/**
 * What the kit's middlewares and handlers need of a Hono app: the request id, set first by
 * `requestId` (request-id.ts) and read by the access log and every problem document. An app's
 * own environment extends it with its own variables.
 */
export interface ServerEnv {
  Variables: {
    requestId: string;
    /** A client's own X-Request-Id, kept apart by `ownRequestId` (request-id.ts). */
    correlationId?: string;
  };
}
