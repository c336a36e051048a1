import type { Context } from "hono";
import type { RequestIdVariables } from "hono/request-id";

/** Hono's typing for this app: the request id middleware sets `requestId`. */
export type AppEnv = { Variables: RequestIdVariables };
export type AppContext = Context<AppEnv>;
