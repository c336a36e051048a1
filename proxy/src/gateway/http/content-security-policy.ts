// The Content-Security-Policy of every answer (hono's secureHeaders, app.ts); the bench's
// careful BFF sends the same (bench/floors/). The app's own scripts and styles only: no inline
// code, no third-party origins. Workers may also come from blob: URLs, which the spreadsheet
// libraries' unzipper (fflate) makes for large files; only script already running here can
// make one (decision 016).
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  workerSrc: ["'self'", "blob:"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
