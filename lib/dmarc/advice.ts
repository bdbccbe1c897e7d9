/**
 * What a DMARC view says in words: why a source fails alignment and what to do, and whether
 * the policy can move on. Pure, so the rules are tested on their own (advice.test.ts); the
 * server applies them to the stored reports (lib/server/dmarc/view.ts).
 */
export type SourceFacts = {
  domain: string;
  dkimAligned: boolean;
  spfAligned: boolean;
  dkimDomain: string | null;
  dkimResult: string | null;
  spfDomain: string | null;
  spfResult: string | null;
  name: string | null;
};

export type SourceFlag = { cause: "forgotten_sender" | "forwarding" | "spoofing"; text: string; next: string };

const under = (name: string | null, domain: string) => !!name && (name === domain || name.endsWith(`.${domain}`));

/**
 * A source passes DMARC when DKIM or SPF passes *aligned*; otherwise it is flagged with the
 * likeliest cause. A valid signature or SPF pass for another domain is a real sender that was
 * never set up to sign or bounce as this domain; a broken signature of this domain is mail
 * changed on the way (a forwarder or a list); no authentication at all is someone else
 * using the name.
 */
export function flagSource(f: SourceFacts): SourceFlag | null {
  if (f.dkimAligned || f.spfAligned) return null;
  const otherSigner = f.dkimResult === "pass" && f.dkimDomain && !under(f.dkimDomain, f.domain) ? f.dkimDomain : null;
  const otherSpf = f.spfResult === "pass" && f.spfDomain && !under(f.spfDomain, f.domain) ? f.spfDomain : null;
  if (otherSigner || otherSpf) {
    const as = otherSigner ? `signs as ${otherSigner}` : `passes SPF for ${otherSpf}`;
    return {
      cause: "forgotten_sender",
      text: `Likely a sender you use but never set up for ${f.domain}: it ${as}, not as ${f.domain}.`,
      next: `In that service, add ${f.domain} as a sending domain (its DKIM key and return path), or stop sending as ${f.domain} from it.`,
    };
  }
  if (f.dkimResult === "fail" && under(f.dkimDomain, f.domain)) {
    return {
      cause: "forwarding",
      text: `Likely forwarding: a message signed by ${f.domain} arrived changed (a forwarder or mailing list${f.name ? `, ${f.name}` : ""}), so the signature broke and SPF names the forwarder.`,
      next: "Nothing to fix on your side if the volume is small; ARC-aware receivers often accept these. Keep DKIM on every sender so forwarded mail keeps a chance.",
    };
  }
  return {
    cause: "spoofing",
    text: `Likely spoofing: mail claiming to be from ${f.domain} with no signature or SPF pass of yours${f.name ? ` (from ${f.name})` : ""}.`,
    next: "If you do not recognise this source, it is what a stricter policy stops: move from p=none to quarantine once your own senders pass.",
  };
}

export type PolicyAdvice = { step: "collect" | "fix" | "quarantine" | "reject" | "hold"; text: string };

/** Below this many messages in the window the share says too little to move on. */
export const ADVICE_MIN_MESSAGES = 100;
export const ADVICE_MIN_PASSING = 0.98;

export function policyAdvice(policy: string | null, messages: number, passing: number): PolicyAdvice {
  const share = messages > 0 ? passing / messages : 0;
  const pct = `${(share * 100).toFixed(1)}%`;
  if (messages < ADVICE_MIN_MESSAGES) {
    return { step: "collect", text: `Reports cover ${messages} message${messages === 1 ? "" : "s"} so far; wait for at least ${ADVICE_MIN_MESSAGES} before changing the policy.` };
  }
  if (share < ADVICE_MIN_PASSING) {
    return { step: "fix", text: `${pct} of messages pass. Fix the flagged sources you recognise first; move on once at least ${ADVICE_MIN_PASSING * 100}% pass.` };
  }
  if (policy === "none" || policy === null) {
    return { step: "quarantine", text: `${pct} of messages pass: you can move from p=none to p=quarantine. Start with pct=25 and raise it over a few weeks while watching this page.` };
  }
  if (policy === "quarantine") {
    return { step: "reject", text: `${pct} of messages pass under p=quarantine: when nothing legitimate has been quarantined for a few weeks, move to p=reject.` };
  }
  return { step: "hold", text: `${pct} of messages pass under p=${policy}. Keep watching for new failing sources.` };
}

/** The tags of a published DMARC record (`v=DMARC1; p=none; rua=mailto:a@b`), names lower-cased. */
export function dmarcTags(record: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of record.split(";")) {
    const at = part.indexOf("=");
    if (at > 0) tags[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim();
  }
  return tags;
}

/** Whether a rua tag lists `mailto:address` (its size suffix `!10m` and case ignored). */
export function ruaCarries(rua: string | undefined, address: string): boolean {
  if (!rua) return false;
  const want = address.toLowerCase();
  return rua.split(",").some((uri) => uri.trim().replace(/!.*$/, "").toLowerCase() === `mailto:${want}`);
}
