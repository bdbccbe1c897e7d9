import punycode from "punycode.js";
import { z } from "zod";

/**
 * Hostname checks for "add a domain", shared by the form (as-you-type, in the browser)
 * and the route handler. No Node built-ins: IDNA runs through the WHATWG URL parser,
 * which both Node and browsers implement (UTS #46 mapping, punycode, full-width dots);
 * the reverse direction (xn-- → Unicode, for display) has no browser built-in, hence
 * punycode.js.
 */
export type HostnameResult = { ok: true; ascii: string; unicode: string } | { ok: false; message: string };

const MAX_LABEL = 63;
const MAX_NAME = 253;
const EXAMPLE = "example.com";
const IDN_INVALID = "This internationalised domain name is not valid: check the spelling";

const fail = (message: string): HostnameResult => ({ ok: false, message });

export function normalizeHostname(input: string): HostnameResult {
  const raw = (input ?? "").trim();
  if (!raw) return fail(`Enter a domain name, for example ${EXAMPLE}`);

  // What people paste by mistake gets a message naming the thing to remove.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw);
  if (scheme) return fail(`Enter the domain only, without ${scheme[1].toLowerCase()}://`);
  const at = raw.lastIndexOf("@");
  if (at >= 0) {
    const after = raw.slice(at + 1);
    return fail(`Enter the domain only, not an email address${after ? ` (use ${after.toLowerCase()})` : ""}`);
  }
  const path = /[/?#\\]/.exec(raw);
  if (path) return fail(`Enter the domain only, without a path (remove "${raw.slice(path.index)}")`);
  if (/\s/.test(raw)) return fail("A domain name cannot contain spaces");
  const port = /:(\d*)$/.exec(raw);
  if (port) return fail(`Enter the domain only, without a port (remove ":${port[1]}")`);

  // One trailing dot is the fully qualified form (example.com.) and means the same name.
  const lowered = raw.toLowerCase().replace(/\.$/, "");
  // ASCII characters other than these have no place in a hostname; letting URL see them
  // would percent-decode ("a%41" → "aa") or accept "_" and "*" silently.
  const bad = /[\x00-\x2c\x2f\x3a-\x60\x7b-\x7f]/.exec(lowered);
  if (bad) {
    return fail(`A domain name can contain only letters, digits, hyphens and dots (remove "${bad[0]}")`);
  }

  let ascii: string;
  try {
    ascii = new URL(`http://${lowered}`).hostname;
  } catch {
    return fail(
      /[^\x00-\x7f]|xn--/.test(lowered)
        ? IDN_INVALID
        : `This is not a valid domain name, for example ${EXAMPLE}`,
    );
  }

  const labels = ascii.split(".");
  if (labels.some((l) => l === "")) return fail("A domain name cannot start with a dot or have two dots in a row");
  if (labels.length < 2) return fail(`Enter the full domain name with its ending, for example ${EXAMPLE}`);
  const long = labels.find((l) => l.length > MAX_LABEL);
  if (long) return fail(`Each part between dots may be at most ${MAX_LABEL} characters; "${long.slice(0, 20)}…" has ${long.length}`);
  const hyphen = labels.find((l) => l.startsWith("-") || l.endsWith("-"));
  if (hyphen) return fail(`A part of a domain name cannot start or end with a hyphen ("${hyphen}")`);
  if (!labels.every((l) => /^[a-z0-9-]+$/.test(l))) {
    return fail("A domain name can contain only letters, digits, hyphens and dots");
  }
  if (ascii.length > MAX_NAME) return fail(`A domain name may be at most ${MAX_NAME} characters; this one has ${ascii.length}`);
  if (/^\d+$/.test(labels[labels.length - 1])) {
    return fail(`The last part cannot be only digits: an IP address is not a domain (for example ${EXAMPLE})`);
  }
  try {
    return { ok: true, ascii, unicode: punycode.toUnicode(ascii) };
  } catch {
    // Chromium's URL parser lets malformed punycode ("xn--zz") through; Node's refuses it above.
    return fail(IDN_INVALID);
  }
}

/** The `domain` field alone: a string in, the ASCII (punycode) hostname out. */
export const domainField = z.string({ error: "Enter a domain name" }).transform((value, ctx) => {
  const result = normalizeHostname(value);
  if (result.ok) return result.ascii;
  ctx.addIssue({ code: "custom", message: result.message, input: value });
  return z.NEVER;
});

/** Body of "add a domain" (form and route): `{ domain }`, errors under the `domain` path. */
export const domainInput = z.object({ domain: domainField });
export type DomainInput = z.input<typeof domainInput>;
