import { z } from "zod";

/** GET /api/p/[project]/domains/[id]/dmarc: the DMARC view of one domain (issue 30). */
export const DMARC_VIEW_DAYS = 30;
export const DMARC_VIEW_SOURCES = 50;

export const dmarcRua = z.object({
  /** The address to put in rua= (a receiving domain's dmarc@). */
  suggested: z.string(),
  /** Whether mail to it can arrive: its domain receives. */
  receiving: z.boolean(),
  /**
   * When the address is on another domain of the project: the TXT record that domain
   * publishes so receivers send this domain's reports there (RFC 7489 section 7.1).
   */
  authorization: z.object({ name: z.string(), value: z.string() }).nullable(),
  /** The TXT record at _dmarc.<domain> as DNS answers it now, or null when there is none. */
  published: z.string().nullable(),
  policy: z.string().nullable(),
  carries: z.boolean(),
  lookupError: z.string().nullable(),
});

export const dmarcDay = z.object({ day: z.string(), pass: z.number().int(), fail: z.number().int() });

export const dmarcSource = z.object({
  ip: z.string(),
  /** Reverse-DNS name, when the resolver answered one. */
  name: z.string().nullable(),
  reporter: z.string(),
  count: z.number().int(),
  dkimAligned: z.boolean(),
  spfAligned: z.boolean(),
  dkimDomain: z.string().nullable(),
  dkimResult: z.string().nullable(),
  spfDomain: z.string().nullable(),
  spfResult: z.string().nullable(),
  dispositions: z.array(z.string()),
  flag: z.object({ cause: z.enum(["forgotten_sender", "forwarding", "spoofing"]), text: z.string(), next: z.string() }).nullable(),
});

export const dmarcView = z.object({
  domain: z.string(),
  rua: dmarcRua,
  days: z.number().int(),
  reports: z.number().int(),
  messages: z.number().int(),
  passing: z.number().int(),
  /** p= in the newest report: the policy receivers saw. */
  policy: z.string().nullable(),
  daily: z.array(dmarcDay),
  sources: z.array(dmarcSource),
  /** Sources beyond the ones listed. */
  moreSources: z.number().int(),
  advice: z.object({ step: z.enum(["collect", "fix", "quarantine", "reject", "hold"]), text: z.string() }),
  /** Report mails of the project in the same days that were not stored because a cap was reached, and the latest reason. */
  skipped: z.object({ count: z.number().int(), latest: z.string().nullable() }),
});
export type DmarcView = z.infer<typeof dmarcView>;
export type DmarcSource = z.infer<typeof dmarcSource>;
