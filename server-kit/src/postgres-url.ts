// DATABASE_URL's check and its shown form, apart from postgres.ts so that reading the
// environment does not load pg, which only a configured PostgreSQL needs.

/** A postgres:// or postgresql:// URL that parses. */
export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//.test(url) && URL.canParse(url);

/** The URL without its password, query or fragment: for messages and log lines. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  parsed.search = "";
  parsed.hash = "";
  return parsed.href;
}
