/**
 * A route param, decoded once; malformed escapes, and escapes that decode to a NUL (which the
 * database refuses, a 500), are kept as they are: no project or id has that name, so the
 * guard or the lookup answers 404.
 */
export function decodeParam(value: string): string {
  try {
    const decoded = decodeURIComponent(value);
    return decoded.includes("\u0000") ? value : decoded;
  } catch {
    return value;
  }
}
