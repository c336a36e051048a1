// The msw server that stands in for the proxy in every web test; handlers are added per test.
import { setupServer } from "msw/node";

export const server = setupServer();
