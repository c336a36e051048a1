// The proxy's answers give instants as ISO 8601 text; its store keeps ms since the epoch.
export const iso = (ms: number) => new Date(ms).toISOString();

export const isoOrNull = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : iso(ms);
