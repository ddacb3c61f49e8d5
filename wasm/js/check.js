// Argument type checks shared by the package's calls: values (lengths, interfaces a
// suite has) are pqverify-core's, checked in the module.

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  return `a ${typeof value}`;
}

/** Whether `value` is a Uint8Array of any realm (vm contexts, iframes, jsdom test runners). */
export function isBytes(value) {
  return value instanceof Uint8Array
    || (ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]');
}

export function bytes(name, value) {
  if (!isBytes(value)) {
    throw new TypeError(`pqverify: ${name} must be a Uint8Array, got ${describe(value)}`);
  }
  if (value.byteLength === 0 && unreadable(value)) {
    throw new TypeError(`pqverify: ${name} is a Uint8Array whose ArrayBuffer was detached (transferred) or resized below it`);
  }
  return value;
}

/**
 * Whether an empty-looking view cannot be read at all: its buffer detached, or resized
 * below its start (slice() refuses both). The engines would read such a view as empty.
 */
function unreadable(view) {
  try {
    view.slice();
    return false;
  } catch {
    return true;
  }
}
