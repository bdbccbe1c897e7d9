import { redactUrlsIn } from "./redact-url";

/**
 * Log text reduced to what failed, without the values it was working on. A call site that
 * writes `${e.message}` into its line hands the logger a string, not the error: a failed
 * query's message then carries its parameters ("params: ada@…,$2b$…"), the driver's detail
 * quotes the row ("Key (email)=(ada@…)"), Postgres quotes the bad input ("invalid input syntax
 * for type uuid: "…""), and an outbound failure names the URL with its token. The console
 * guard passes every line through here, so no call site has to remember.
 *
 * Every step is one left-to-right pass with bounded look-ahead: linear in the text. No pattern
 * here may end in an unanchored repetition that can fail (`/\.+$/` on a run of dots retries
 * from each dot: quadratic); trims and scans are loops. The guard's test feeds each shape.
 */
export const SCRUBBED = "***";

/** Drizzle ends a failed query's message with "params: <values>"; everything after is values. */
function cutParams(text: string): string {
  const at = text.search(/(^|\n|\s)params: /);
  if (at < 0) return text;
  const start = text.indexOf("params: ", at);
  return `${text.slice(0, start)}params: ${SCRUBBED}`;
}

const KEY_DETAIL = /(Key \([^)\n]{0,200}\))=\([^\n]*/g;
const QUOTED_VALUE = /(: |value |contains )"[^"\n]{0,2000}"?/g;
const FAILING_ROW = /(Failing row contains )\([^\n]*/g;

const table = (chars: string) => {
  const t = new Uint8Array(128);
  for (const c of chars) t[c.charCodeAt(0)] = 1;
  return t;
};
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
// Not "/" or "*", though allowed: a masked URL's "//***@host" is no address.
const LOCAL = table(`${ALNUM}._%+-!#$&'=?^\`{|}~`);
const DOMAIN = table(`${ALNUM}.-`);
const isLocal = (c: string) => LOCAL[c.charCodeAt(0)] === 1;
const isDomain = (c: string) => DOMAIN[c.charCodeAt(0)] === 1;

/** Each `local@domain` with its local part masked (kept: the domain, which says which provider). */
function maskEmails(text: string): string {
  if (!text.includes("@")) return text;
  let out = "";
  let copied = 0;
  let lastEnd = 0;
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    // Never walk back over text an earlier match already consumed: keeps the pass linear.
    while (start > lastEnd && isLocal(text[start - 1])) start--;
    let end = at + 1;
    while (end < text.length && isDomain(text[end])) end++;
    // Trailing dots end the sentence, not the domain. A loop, not /\.+$/: that pattern retries
    // from every dot of a long run, quadratic in it.
    while (end > at + 1 && text[end - 1] === ".") end--;
    const domain = text.slice(at + 1, end);
    if (start === at || !domain.includes(".")) continue;
    out += text.slice(copied, start) + `${SCRUBBED}@${domain}`;
    copied = at + 1 + domain.length;
    lastEnd = copied;
    at = copied - 1;
  }
  return out + text.slice(copied);
}

export function scrubLogText(text: string): string {
  let t = cutParams(text);
  t = t.replace(KEY_DETAIL, `$1=(${SCRUBBED})`).replace(FAILING_ROW, `$1(${SCRUBBED})`).replace(QUOTED_VALUE, `$1"${SCRUBBED}"`);
  t = redactUrlsIn(t);
  return maskEmails(t);
}
