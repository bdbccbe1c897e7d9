/**
 * `"Ann <ann@x.io>"` → `ann@x.io`; a bare address is only trimmed and lower-cased. The form
 * the message index and the erasures compare addresses in (lib/server/message-index,
 * lib/server/redaction), so it sits below both.
 */
export function bareAddress(value: string): string {
  const angle = /<([^<>]+)>\s*$/.exec(value);
  return (angle ? angle[1] : value).trim().toLowerCase();
}
