/**
 * For the servers' metrics tests: every series of a scrape (Prometheus's text format), and the
 * check that each label value is one of a known, fixed set, so no registration, email, key,
 * URL or address can be in one.
 */
import { expect } from "vitest";

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Each series line of `text`, HELP and TYPE lines left out. */
export function allSeries(text: string): Series[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [, name, labels = "", value] = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(
        line,
      )!;
      return {
        name: name!,
        labels: Object.fromEntries(
          [...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
        ),
        value: Number(value),
      };
    });
}

/** The value of the one series of `name` with these labels; undefined when there is none. */
export function seriesValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return allSeries(text).find(
    (series) =>
      series.name === name &&
      Object.entries(labels).every(([k, v]) => series.labels[k] === v),
  )?.value;
}

/** What each label may hold: a word of a fixed set, or a shape that holds nothing personal. */
const ALLOWED: Record<string, RegExp> = {
  server: /^(service|proxy)$/,
  method: /^[A-Z]+$/,
  // A route as registered: lower-case segments and :parameters, never a path's values.
  route: /^(\*|(\/[a-z0-9-]*|\/:[a-z]+)+\*?)$/,
  status: /^\d{3}$/,
  le: /^(\d+(\.\d+)?(e[+-]?\d+)?|\+Inf)$/,
  // The refusals' kinds, and Node's garbage collections' (prom-client's nodejs_gc_*).
  kind: /^(plan|unauthenticated|wrong_key|user|sign_in|major|minor|incremental|weakcb)$/,
  state: /^(running|pending|queued|connected|free|total|idle|waiting)$/,
  // Not `job`: Prometheus gives every scraped series its scrape job's name under that label.
  queue: /^(sweep|delivery)$/,
  channel: /^(email|webhook)$/,
  // A webhook's id, or smtp: every alert email (never an address).
  endpoint: /^(\d+|smtp)$/,
  // prom-client's own: Node's version, its heap spaces.
  version: /^v\d+\.\d+\.\d+$/,
  major: /^\d+$/,
  minor: /^\d+$/,
  patch: /^\d+$/,
  space: /^[a-z_]+$/,
  // Node's active resources by their kind (TCPSocketWrap, Timeout, ...).
  type: /^[A-Za-z]+$/,
};

/**
 * Every label of every series in `text` is known, and its value is from its allowed set; and
 * none holds any of `absent` (the plates, keys and emails the test sent), in any case: a route's
 * shape alone would let a lower-cased path through.
 */
export function expectOnlyAllowedLabels(
  text: string,
  absent: readonly string[] = [],
): void {
  for (const series of allSeries(text))
    for (const [label, value] of Object.entries(series.labels)) {
      expect(
        ALLOWED[label],
        `label ${label} of ${series.name} is not a known one`,
      ).toBeDefined();
      expect(value, `${series.name}'s ${label}`).toMatch(ALLOWED[label]!);
      for (const secret of absent)
        expect(value.toLowerCase(), `${series.name}'s ${label}`).not.toContain(
          secret.toLowerCase(),
        );
    }
}
