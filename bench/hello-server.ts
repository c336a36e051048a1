// `node bench/hello-server.ts <port>`: the bare Hono app the service is compared with, on the
// same server adapter, so the ratio shows what the service itself costs per request.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("hello"));

serve({
  fetch: app.fetch,
  hostname: "127.0.0.1",
  port: Number(process.argv[2]),
});
