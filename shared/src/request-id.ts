// One rule for the proxy and the service, so an id the proxy keeps is the one the service
// keeps, and one id follows a request through both logs and back to the browser.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Whether an inbound X-Request-Id is short and plain enough to reuse (and to log). */
export function isAcceptableRequestId(
  value: string | undefined,
): value is string {
  return value !== undefined && ACCEPTABLE_REQUEST_ID.test(value);
}
