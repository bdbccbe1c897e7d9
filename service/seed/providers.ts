/**
 * The mailbox providers of the demo's recipients: which domains, how many people, and how
 * each behaves. The figures are the demo's, chosen to look like a healthy sender with one
 * weak spot: Yahoo refuses noticeably more (stale addresses and policy blocks), the others
 * bounce 1–2 %. The diagnostics are worded as each provider words them.
 */
export type ProviderKey = "gmail" | "microsoft" | "yahoo" | "apple" | "other";

export type Provider = {
  key: ProviderKey;
  /** Share of the recipients. */
  share: number;
  domains: readonly (readonly [string, number])[];
  /** Share of messages refused because the mailbox no longer exists (hard bounce: the address is suppressed). */
  unknownUserRate: number;
  /** Share of messages refused for policy reasons (a bounce that suppresses no one). */
  policyBlock: number;
  /** Chance that one message is deferred before it is delivered. */
  deferral: number;
  /** How much likelier than average an open is recorded (Apple's privacy proxy opens everything). */
  openFactor: number;
  /** Share of delivered messages that draw a complaint (feedback loops: Yahoo and Microsoft send them, Gmail rarely per message). */
  complaint: number;
  userAgent: string;
  unknownUser: (email: string) => string;
  policy: string;
  deferred: { cause: string; diagnostic: string };
};

/** Fictional companies on the reserved `.example` names: nothing addressed there can reach anyone. */
export const COMPANY_DOMAINS = [
  "northwind.example", "globex.example", "initech.example", "umbrella-corp.example", "hooli.example",
  "stark-industries.example", "wayne-enterprises.example", "soylent.example", "cyberdyne.example", "vandelay.example",
] as const;

export const PROVIDERS: readonly Provider[] = [
  {
    key: "gmail", share: 0.36, domains: [["gmail.com", 0.93], ["googlemail.com", 0.07]],
    unknownUserRate: 0.012, policyBlock: 0.003, deferral: 0.02, openFactor: 1, complaint: 0.0005,
    userAgent: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
    unknownUser: () => "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser",
    policy: "550 5.7.1 Our system has detected that this message is likely unsolicited mail. To reduce the amount of spam sent to Gmail, this message has been blocked.",
    deferred: { cause: "rate_limited", diagnostic: "450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered. Please resend your message at a later time." },
  },
  {
    key: "microsoft", share: 0.2, domains: [["outlook.com", 0.45], ["hotmail.com", 0.4], ["live.com", 0.15]],
    unknownUserRate: 0.013, policyBlock: 0.004, deferral: 0.03, openFactor: 0.9, complaint: 0.002,
    userAgent: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)",
    unknownUser: (email) => `550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [${email.split("@")[1]}]`,
    policy: "550 5.7.1 Unfortunately, messages from [203.0.113.25] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    deferred: { cause: "throttled", diagnostic: "451 4.7.500 Server busy. Please try again later from [203.0.113.25]. (S77714) [BN8NAM11FT054.eop-nam11.prod.protection.outlook.com]" },
  },
  {
    key: "yahoo", share: 0.13, domains: [["yahoo.com", 0.85], ["ymail.com", 0.15]],
    unknownUserRate: 0.052, policyBlock: 0.03, deferral: 0.08, openFactor: 0.85, complaint: 0.003,
    userAgent: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
    unknownUser: (email) => `554 delivery error: dd This user doesn't have a ${email.split("@")[1]} account (${email}) [0] - mta4021.mail.bf1.yahoo.com`,
    policy: "554 5.7.9 Message not accepted for policy reasons. See https://senders.yahooinc.com/error-codes",
    deferred: { cause: "throttled", diagnostic: "421 4.7.0 [TSS04] Messages from 203.0.113.25 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes" },
  },
  {
    key: "apple", share: 0.13, domains: [["icloud.com", 0.7], ["me.com", 0.2], ["mac.com", 0.1]],
    unknownUserRate: 0.009, policyBlock: 0.002, deferral: 0.015, openFactor: 1.6, complaint: 0.0005,
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
    unknownUser: (email) => `550 5.1.1 <${email}>: user does not exist`,
    policy: "554 5.7.1 [HM08] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137",
    deferred: { cause: "greylisted", diagnostic: "451 4.7.1 Greylisted, please try again later" },
  },
  {
    key: "other", share: 0.18, domains: [...COMPANY_DOMAINS.map((d) => [d, 0.085] as const), ["gmx.de", 0.06], ["proton.me", 0.05], ["comcast.net", 0.04]],
    unknownUserRate: 0.014, policyBlock: 0.004, deferral: 0.03, openFactor: 0.8, complaint: 0.0008,
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    unknownUser: (email) => `550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table`,
    policy: "554 5.7.1 Service unavailable; Client host [203.0.113.25] blocked using zen.spamhaus.org",
    deferred: { cause: "mailbox_full", diagnostic: "452 4.2.2 Mailbox full, try again later" },
  },
];

export function providerOf(domain: string): ProviderKey {
  for (const p of PROVIDERS) if (p.domains.some(([d]) => d === domain)) return p.key;
  return "other";
}
