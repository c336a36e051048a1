// Entry point: mounts the app into index.html's #root.
// First of all: zod 4 probes whether eval is allowed (new Function) the first time a schema
// parses, which the Content-Security-Policy blocks and reports as a violation. jitless skips
// the probe and zod's compiled fast path (e2e csp.spec.ts; docs/decisions/018-proxy-edges.md).
import { config as zodConfig } from "zod/v4/core";
zodConfig({ jitless: true });
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/header.css";
import "./styles/forms.css";
import "./styles/choices.css";
import "./styles/components.css";
import "./styles/errors.css";
import "./styles/result.css";
import "./styles/print.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
