// Entry point: mounts the app into index.html's #root.
// First of all: zod jitless, before any schema is built (see zod-jitless.ts).
import "./lib/zod-jitless.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { forgetBrowserRecentChecks } from "./lib/recent-checks.ts";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/header.css";
import "./styles/forms.css";
import "./styles/choices.css";
import "./styles/components.css";
import "./styles/errors.css";
import "./styles/result.css";
import "./styles/print.css";

// Recent checks now come from the proxy, per user: an older version's list in this browser goes.
forgetBrowserRecentChecks();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
