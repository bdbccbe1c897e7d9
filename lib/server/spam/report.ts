import type { SpamRule } from "@/lib/schemas/presend";

/**
 * The rules a SpamAssassin REPORT lists, from its table:
 *
 *    pts rule name              description
 *   ---- ---------------------- --------------------------------------------------
 *    2.7 MISSING_DATE           Missing Date: header
 *   -0.0 NO_RELAYS              Informational: message was not relayed via SMTP
 *
 * Long descriptions continue on indented lines below their rule.
 */
export function parseReport(report: string): Omit<SpamRule, "explanation">[] {
  const lines = report.split(/\r?\n/);
  const header = lines.findIndex((l) => /^\s*pts\s+rule name\s+description/i.test(l));
  if (header === -1) return [];
  const rules: Omit<SpamRule, "explanation">[] = [];
  for (const line of lines.slice(header + 1)) {
    if (/^\s*-{3,}\s+-{3,}/.test(line)) continue;
    const row = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s+(.*)$/.exec(line);
    if (row) {
      rules.push({ score: Number(row[1]), name: row[2]!, description: row[3]!.trim() });
      continue;
    }
    const continued = /^\s{10,}(\S.*)$/.exec(line);
    if (continued && rules.length) {
      const last = rules[rules.length - 1]!;
      last.description = `${last.description} ${continued[1]!.trim()}`;
      continue;
    }
    if (!line.trim()) {
      if (rules.length) break;
      continue;
    }
    break;
  }
  return rules;
}

/**
 * Friendlier words for the rules a template most often hits: what the rule saw, and what
 * to do about it. Prefixes (`HTML_IMAGE_RATIO_`) cover the numbered families of a rule.
 */
const EXPLAINED: [RegExp, string][] = [
  [/^MISSING_DATE$/, "The message has no Date header. The service adds one when it sends, so this does not apply to the real message."],
  [/^MISSING_MID$/, "The message has no Message-ID. The service adds one when it sends."],
  [/^MISSING_SUBJECT$|^EMPTY_SUBJECT$/, "There is no subject. Write one: mail without a subject looks like spam to filters and people."],
  [/^SUBJ_ALL_CAPS$/, "The subject is written in capital letters, which reads as shouting and is typical of spam."],
  [/^SUBJ_ILLEGAL_CHARS$/, "The subject contains raw 8-bit characters without encoding."],
  [/^EMPTY_MESSAGE$|^EMPTY_BODY$/, "The message has no text at all."],
  [/^MIME_HTML_ONLY$/, "There is only an html part. Add a plain-text version of the same content."],
  [/^MPART_ALT_DIFF(_COUNT)?$/, "The html and text parts say different things. Keep the text version in line with the html."],
  [/^HTML_IMAGE_ONLY_\d+$/, "The html is mostly images with very little text; spammers hide their words in images. Add real text."],
  [/^HTML_IMAGE_RATIO_\d+$/, "There is little text for the number or size of images. Add text or remove images."],
  [/^HTML_SHORT_LINK_IMG_\d+$/, "A short html message that is mostly a linked image. Add text around the image."],
  [/^HTML_FONT_LOW_CONTRAST$/, "Some text is nearly the same colour as its background, a trick to hide words from readers."],
  [/^HTML_FONT_SIZE_(TINY|HUGE)/, "Some text is extremely small or large, which spam uses to hide or shout words."],
  [/^HTML_MIME_NO_HTML_TAG$/, "The html part does not start with an <html> tag."],
  [/^HTML_TAG_BALANCE_/, "The html's tags are not balanced (an element is opened and not closed)."],
  [/^HTML_OBFUSCATE_/, "The html writes letters as character codes, a way to hide words from filters."],
  [/^HTTPS_HTTP_MISMATCH$/, "A link's text shows an https: address while the link itself is http:."],
  [/^NORMAL_HTTP_TO_IP$|^NUMERIC_HTTP_ADDR$|^HTTP_ESCAPED_HOST$/, "A link points to a raw IP address or a disguised host instead of a domain name."],
  [/^URI_NOVOWEL$/, "A link's domain has no vowels, typical of throw-away spam domains."],
  [/^T_REMOTE_IMAGE$|^REMOTE_IMAGE$/, "The message loads images from a remote server (informational)."],
  [/^HTML_MESSAGE$/, "The message has an html part (informational; it costs nothing or next to nothing)."],
  [/^NO_RELAYS$|^NO_RECEIVED$|^NO_RECEIVED_HEADERS$/, "The message has not travelled through mail servers yet (informational: it is checked before sending)."],
  [/^FREEMAIL_FROM$|^FREEMAIL_ENVFROM/, "The sender address is at a free mail provider; send from your own domain."],
  [/^(T_)?DKIM_|^(T_)?SPF_|^DMARC_|^KAM_DMARC/, "A sender-authentication test (DKIM, SPF, DMARC). It needs the real sending path, so it is only indicative here; the domain screen checks your records."],
  [/^URIBL_|^SURBL_|^RCVD_IN_/, "A blocklist lists a domain or server in the message. Find the link or sender named and replace it."],
  [/^BAYES_/, "The statistical filter's opinion, trained on past mail."],
  [/^LOTS_OF_MONEY$|^MONEY_|^ADVANCE_FEE_|^FORM_FRAUD/, "The text talks about large sums of money in a way typical of fraud."],
  [/^DRUGS_/, "The text mentions medicines in a way typical of pharmacy spam."],
  [/^DEAR_SOMETHING$|^DEAR_FRIEND$/, 'The greeting is generic ("Dear friend"). Use the person\'s name.'],
  [/^(T_)?FILL_THIS_FORM/, "The message asks the reader to fill in a form with personal details."],
  [/^BODY_SINGLE_WORD$|^BODY_EMPTY$/, "The text is a single word or nearly empty."],
  [/^TVD_/, "A phrase typical of bulk spam."],
  [/^(T_)?KAM_/, "One of the heuristics maintained by the KAM ruleset for current spam campaigns."],
  [/^UNPARSEABLE_RELAY$/, "A Received header could not be read (informational)."],
  [/^PYZOR|^RAZOR2|^DCC_/, "A shared database of spam fingerprints matched this message."],
];

export function explain(rule: Omit<SpamRule, "explanation">): string {
  const words = EXPLAINED.find(([pattern]) => pattern.test(rule.name))?.[1];
  if (words) return words;
  const effect = rule.score > 0 ? "adds to the score" : rule.score < 0 ? "counts in the message's favour" : "has no effect on the score";
  return `SpamAssassin's rule: ${rule.description.replace(/\.$/, "")}. It ${effect}.`;
}
