// RATE_LIMIT_URL's check, apart from redis-client.ts so that reading the environment does not
// load node-redis (over a second on a busy machine), which only a configured Redis needs.

/** redis:// or rediss:// (TLS) */
export const isRedisUrl = (url: string | undefined): url is string =>
  url !== undefined && /^rediss?:\/\//.test(url);
