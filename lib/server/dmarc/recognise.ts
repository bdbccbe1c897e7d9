/**
 * Whether an inbound message looks like a DMARC aggregate report, from what every faithful
 * service returns for a message (direction, subject, recipients): RFC 7489 section 7.2.1.1
 * asks reporters for a subject starting "Report Domain:", which Google, Microsoft and Yahoo
 * use; a message to a `dmarc…@` address (the suggested rua) counts too. The attachments
 * decide in the job; this only chooses which messages are worth listing them for.
 */
export function looksLikeAggregateReport(message: { direction: string; subject: string | null; to: string[] }): boolean {
  if (message.direction !== "inbound") return false;
  if (/^\s*report\s+domain\s*:/i.test(message.subject ?? "")) return true;
  return message.to.some((address) => /^\s*(?:[^<]*<)?dmarc[^@<>\s]*@/i.test(address));
}

/** Which attachments can hold a report, by the name or type the reporter gave (the bytes decide the format). */
export function looksLikeReportAttachment(a: { filename: string; contentType: string }): boolean {
  return /\.(xml|xml\.gz|gz|zip)$/i.test(a.filename) || /(xml|gzip|zip)/i.test(a.contentType);
}
