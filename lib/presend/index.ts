import { presendDraft, type PresendDraft, type PresendResult } from "@/lib/schemas/presend";
import { checkClientSupport } from "./client-support";
import { checkDarkMode } from "./dark-mode";
import { sortFindings } from "./finding";
import { checkImages } from "./images";
import { checkLinks, extractLinks, listLinks } from "./links";
import { checkSize, measure } from "./size";
import { parseSource } from "./source";
import { checkTextPart, checkUnsubscribe } from "./text-part";

/**
 * Every pre-send check of one draft, without the network: email-client support, size,
 * links, images, dark mode, the text part and (for a batch) unsubscribe. Pure and synchronous; the
 * html is parsed once and shared by the checks.
 */
export function runChecks(input: PresendDraft): Omit<PresendResult, "spam"> {
  const draft = presendDraft.parse(input);
  const source = draft.html?.trim() ? parseSource(draft.html) : null;
  const links = source ? extractLinks(source) : [];
  const sizes = measure(draft);
  const findings = [
    ...(source ? checkClientSupport(source) : []),
    ...checkSize(draft, source, sizes),
    ...checkLinks(links),
    ...(source ? checkImages(source) : []),
    ...(source ? checkDarkMode(source) : []),
    ...checkTextPart(draft, source),
    ...checkUnsubscribe(draft, links),
  ];
  return { findings: sortFindings(findings), links: listLinks(links), sizes };
}
