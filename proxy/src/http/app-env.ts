import type { Context } from "hono";

/** Hono's typing for this app: the request id middleware sets `requestId`. */
export type AppEnv = { Variables: { requestId: string } };
export type AppContext = Context<AppEnv>;
