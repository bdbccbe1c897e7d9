import { gzipSync, zipSync, strToU8 } from "fflate";

/**
 * Hand-written DMARC aggregate reports (RFC 7489 appendix C) in the shapes the large
 * reporters send, and malicious ones. Used by the Vitest files and the e2e journey.
 */
export type SampleRecord = { ip: string; count: number; disposition?: string; dkim: "pass" | "fail"; spf: "pass" | "fail"; dkimDomain?: string; spfDomain?: string; dkimResult?: string; spfResult?: string };

/** Yesterday, 00:00 UTC: the reports cover one UTC day, recent enough for the screen's window. */
const T0 = Math.floor(Date.now() / 86_400_000 - 1) * 86_400;

function records(domain: string, rows: SampleRecord[], ns = ""): string {
  return rows
    .map(
      (r) => `
  <${ns}record>
    <${ns}row>
      <${ns}source_ip>${r.ip}</${ns}source_ip>
      <${ns}count>${r.count}</${ns}count>
      <${ns}policy_evaluated>
        <${ns}disposition>${r.disposition ?? "none"}</${ns}disposition>
        <${ns}dkim>${r.dkim}</${ns}dkim>
        <${ns}spf>${r.spf}</${ns}spf>
      </${ns}policy_evaluated>
    </${ns}row>
    <${ns}identifiers>
      <${ns}header_from>${domain}</${ns}header_from>
    </${ns}identifiers>
    <${ns}auth_results>
      <${ns}dkim>
        <${ns}domain>${r.dkimDomain ?? domain}</${ns}domain>
        <${ns}selector>s1</${ns}selector>
        <${ns}result>${r.dkimResult ?? r.dkim}</${ns}result>
      </${ns}dkim>
      <${ns}spf>
        <${ns}domain>${r.spfDomain ?? domain}</${ns}domain>
        <${ns}scope>mfrom</${ns}scope>
        <${ns}result>${r.spfResult ?? r.spf}</${ns}result>
      </${ns}spf>
    </${ns}auth_results>
  </${ns}record>`,
    )
    .join("");
}

/** Google: plain tags, a numeric report id, zipped, named org!domain!begin!end.zip. */
export function googleReport(domain: string, rows: SampleRecord[], reportId = "17642880001234567890") {
  const xml = `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <report_metadata>
    <org_name>google.com</org_name>
    <email>noreply-dmarc-support@google.com</email>
    <extra_contact_info>https://support.google.com/a/answer/2466580</extra_contact_info>
    <report_id>${reportId}</report_id>
    <date_range><begin>${T0}</begin><end>${T0 + 86399}</end></date_range>
  </report_metadata>
  <policy_published><domain>${domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct><np>none</np></policy_published>${records(domain, rows)}
</feedback>`;
  const filename = `google.com!${domain}!${T0}!${T0 + 86399}.zip`;
  return { xml, filename, contentType: "application/zip", bytes: zipSync({ [`google.com!${domain}!${T0}!${T0 + 86399}.xml`]: strToU8(xml) }) };
}

/** Microsoft: a namespaced document with a version element, gzipped, .xml.gz. */
export function microsoftReport(domain: string, rows: SampleRecord[], reportId = "a5c3f0e2d7b94c1e8f6a2b3c4d5e6f70") {
  const xml = `<?xml version="1.0"?>
<d:feedback xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <d:version>1.0</d:version>
  <d:report_metadata>
    <d:org_name>Enterprise Outlook</d:org_name>
    <d:email>dmarcreport@microsoft.com</d:email>
    <d:report_id>${reportId}</d:report_id>
    <d:date_range><d:begin>${T0}</d:begin><d:end>${T0 + 86400}</d:end></d:date_range>
  </d:report_metadata>
  <d:policy_published><d:domain>${domain}</d:domain><d:adkim>r</d:adkim><d:aspf>r</d:aspf><d:p>none</d:p><d:sp>none</d:sp><d:pct>100</d:pct><d:fo>0</d:fo></d:policy_published>${records(domain, rows, "d:")}
</d:feedback>`;
  const filename = `enterprise.protection.outlook.com!${domain}!${T0}!${T0 + 86400}.xml.gz`;
  return { xml, filename, contentType: "application/gzip", bytes: gzipSync(strToU8(xml)) };
}

/** Yahoo: plain XML attached as is. */
export function yahooReport(domain: string, rows: SampleRecord[], reportId = "1764288000.918273") {
  const xml = `<?xml version="1.0"?>
<feedback>
  <report_metadata>
    <org_name>Yahoo</org_name>
    <email>dmarchelp@yahooinc.com</email>
    <report_id>${reportId}</report_id>
    <date_range><begin>${T0}</begin><end>${T0 + 86399}</end></date_range>
  </report_metadata>
  <policy_published><domain>${domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><pct>100</pct></policy_published>${records(domain, rows)}
</feedback>`;
  return { xml, filename: `yahoo.com!${domain}!${T0}!${T0 + 86399}.xml`, contentType: "text/xml", bytes: strToU8(xml) };
}

/** 64 MiB of zeros in a zip: a bomb a ratio over 1,000. */
export function zipBomb() {
  return zipSync({ "report.xml": new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
}

/** The same as gzip. */
export function gzipBomb() {
  return gzipSync(new Uint8Array(64 * 1024 * 1024), { level: 9 });
}

/** The classic entity expansion: a billion "lol"s from a few hundred bytes, were entities expanded. */
export function billionLaughs(): string {
  const defs = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE feedback [\n${defs.join("\n")}\n]>\n<feedback><report_metadata><org_name>&lol9;</org_name></report_metadata></feedback>`;
}

/** A zip of two files: a report is one. */
export function twoEntryZip(xml: string) {
  return zipSync({ "a.xml": strToU8(xml), "b.xml": strToU8(xml) });
}

export const SAMPLE_ROWS: SampleRecord[] = [
  { ip: "209.85.220.41", count: 120, dkim: "pass", spf: "pass" },
  { ip: "40.107.22.95", count: 30, dkim: "pass", spf: "fail", spfDomain: "bounce.forwarder.example" },
  // A sender never set up for the domain: valid DKIM and SPF, but for its own domain, so not aligned.
  { ip: "203.0.113.9", count: 7, dkim: "fail", spf: "fail", dkimDomain: "mailer.example", spfDomain: "mailer.example", dkimResult: "pass", spfResult: "pass", disposition: "none" },
];
