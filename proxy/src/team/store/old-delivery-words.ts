/**
 * What the delivery log said of a failing webhook before issue 33 (it quoted the endpoint's
 * body, or a redirect's address), and what each engine's scrub step leaves of it: the status
 * and VICS's own words. Both engines' store tests run their step over these.
 */
export const OLD_DELIVERY_WORDS: ReadonlyArray<{
  before: string;
  after: string;
}> = [
  {
    before:
      'The endpoint answered 500, not a 2xx success, saying "{"error":"db down","token":"s3cr3t"}".',
    after: "The endpoint answered 500, not a 2xx success.",
  },
  {
    before:
      'The endpoint answered 302, a redirect to "https://hooks.example.org/in?key=s3cr3t"; webhooks do not follow redirects, so set the webhook\'s URL to where it points.',
    after:
      "The endpoint answered 302, a redirect; webhooks do not follow redirects, so set the webhook's URL to the address it redirects to.",
  },
  // Words of VICS's own are left as they are.
  {
    before: "The endpoint answered 404, not a 2xx success.",
    after: "The endpoint answered 404, not a 2xx success.",
  },
  {
    before: "The endpoint did not answer within 10 seconds.",
    after: "The endpoint did not answer within 10 seconds.",
  },
];
