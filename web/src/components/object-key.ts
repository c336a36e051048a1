// A stable React key per object instance, so a component restarts when a new error replaces the old.
const keys = new WeakMap<object, number>();
let nextKey = 1;

export function objectKey(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let key = keys.get(value);
  if (key === undefined) {
    key = nextKey++;
    keys.set(value, key);
  }
  return key;
}
