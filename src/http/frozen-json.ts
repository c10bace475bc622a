/**
 * JSON bytes of a value that never changes once built (a scene snapshot), serialised once.
 * A wall read then costs no JSON.stringify at all: Koa sends the buffer and knows its length.
 */
const cache = new WeakMap<object, Buffer>();

export function frozenJson(value: object): Buffer {
  let bytes = cache.get(value);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(value));
    cache.set(value, bytes);
  }
  return bytes;
}
