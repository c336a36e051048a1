/**
 * The answers to bulk requests that carried an Idempotency-Key, kept a short while so that the
 * same request sent again (a fleet run resumed after a reload) is answered without asking the
 * service, which would count it against the key's rate limit twice (decision 028).
 * Bounded by total bytes, least recently used first out; an entry also lapses after `ttlMs`.
 */

export interface KeptAnswer {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  body: string;
}

interface Entry {
  answer: KeptAnswer;
  bytes: number;
  expiresAt: number;
}

export interface ReplayCacheOptions {
  maxBytes: number;
  ttlMs: number;
  now?: () => number;
}

// Roughly what an answer holds in memory; JS strings are UTF-16.
function sizeOf(key: string, answer: KeptAnswer): number {
  let chars = key.length + answer.body.length;
  for (const [name, value] of answer.headers)
    chars += name.length + value.length;
  return chars * 2;
}

export class ReplayCache {
  // A Map iterates in insertion order: re-inserting on use makes its first key the oldest.
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #options: Required<ReplayCacheOptions>;

  constructor(options: ReplayCacheOptions) {
    this.#options = { now: Date.now, ...options };
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): KeptAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#options.now()) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.answer;
  }

  set(key: string, answer: KeptAnswer): void {
    const bytes = sizeOf(key, answer);
    this.#remove(key);
    // An answer larger than the whole cache is not kept: it would push out everything else.
    if (bytes > this.#options.maxBytes) return;
    const expiresAt = this.#options.now() + this.#options.ttlMs;
    this.#entries.set(key, { answer, bytes, expiresAt });
    this.#bytes += bytes;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#remove(oldest);
    }
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
