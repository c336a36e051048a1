// zod 4 probes whether eval is allowed (new Function) the first time it parses, which the
// Content-Security-Policy blocks and reports as a violation. jitless skips the probe. A classic
// script, run before any module of the app, so it is set whichever chunk brings zod first
// (src/lib/zod-jitless.ts does the same for tests and the development server).
(globalThis.__zod_globalConfig ??= {}).jitless = true;
