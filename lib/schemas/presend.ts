import { z } from "zod";
import { FINDING_KINDS, MAX_LINKS_CHECKED, SEVERITIES } from "./words";
import { emailAddress } from "./common";

/**
 * Pre-send checks: the draft a screen is about to send (or start a batch with), and what the
 * checks found. The draft carries attachment names and sizes only — the checks never need
 * the bytes, and a screen never has to upload them twice.
 */

export { FINDING_KINDS, MAX_LINKS_CHECKED, SEVERITIES };

/** How many links one reachability check follows at once. */
export const LINK_CHECK_CONCURRENCY = 6;

export const presendAttachment = z.object({
  filename: z.string().max(255, { error: "must be at most 255 characters" }),
  /** Decoded bytes. */
  size: z.number({ error: "must be a number of bytes" }).int().nonnegative(),
  contentType: z.string().max(255).optional(),
});
export type PresendAttachment = z.infer<typeof presendAttachment>;

/**
 * The most html (and text) one check reads: 1,000,000 characters, about a megabyte. The
 * interface states no limit on a message body; Gmail clips html past 102 KB, so a draft near
 * this is far past what anyone reads, and the checks of a megabyte already take seconds.
 */
export const MAX_CHECKED_BODY_CHARS = 1_000_000;
/** Custom headers of one draft; the interface states none, and a real message carries a handful. */
export const MAX_CHECKED_HEADERS = 100;
const checkedBody = z.string().max(MAX_CHECKED_BODY_CHARS, { error: `must be at most ${MAX_CHECKED_BODY_CHARS.toLocaleString("en-US")} characters (about 1 MB) to be checked; Gmail clips html past 102 KB anyway` });

export const presendDraft = z.object({
  subject: z.string().max(998, { error: "must be at most 998 characters" }).default(""),
  html: checkedBody.optional(),
  text: checkedBody.optional(),
  attachments: z.array(presendAttachment).max(100, { error: "must list at most 100 attachments" }).default([]),
  headers: z
    .record(z.string().max(200), z.string().max(2000))
    .refine((headers) => Object.keys(headers).length <= MAX_CHECKED_HEADERS, { error: `must have at most ${MAX_CHECKED_HEADERS} headers` })
    .default({}),
  /** A batch (one message per row): bulk-mail rules such as unsubscribe apply. */
  isBatch: z.boolean().default(false),
  /** Used only to build the message SpamAssassin scores; a placeholder sender otherwise. */
  from: emailAddress.optional(),
});
export type PresendDraft = z.input<typeof presendDraft>;
export type PresendDraftParsed = z.output<typeof presendDraft>;

export const presendRequest = z.object({
  draft: presendDraft,
  /** Ask SpamAssassin too, when it is configured (slower: a second or two). */
  spam: z.boolean().default(true),
});
export type PresendRequest = z.input<typeof presendRequest>;
/** As the route (or the template page) read it: what presendChecks takes. */
export type PresendRequestParsed = z.output<typeof presendRequest>;

export const severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severity>;

export const findingKind = z.enum(FINDING_KINDS);
export type FindingKind = z.infer<typeof findingKind>;

/** A place in the html source: 1-based line and column, the source there, and the element's path. */
export const place = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  excerpt: z.string(),
  path: z.string().optional(),
});
export type Place = z.infer<typeof place>;

export const clientFamilySupport = z.object({
  family: z.string(),
  /** Client names (platforms) of this family without support, and with partial support. */
  none: z.array(z.string()),
  partial: z.array(z.string()),
});
export type ClientFamilySupport = z.infer<typeof clientFamilySupport>;

export const finding = z.object({
  /** Stable within one result (rule and place), for list keys and tests. */
  id: z.string(),
  kind: findingKind,
  rule: z.string(),
  severity,
  message: z.string(),
  place: place.optional(),
  /** How many places share this finding; `place` is the first. */
  count: z.number().int().min(1).optional(),
  clients: z.array(clientFamilySupport).optional(),
  notes: z.array(z.string()).optional(),
  url: z.string().optional(),
});
export type Finding = z.infer<typeof finding>;

export const LINK_KINDS = ["web", "mailto", "tel", "variable", "other"] as const;
export const presendLink = z.object({
  url: z.string(),
  kind: z.enum(LINK_KINDS),
  /** Host of a web link; the address of a mailto:, the number of a tel:. */
  host: z.string().nullable(),
  text: z.string(),
  count: z.number().int().min(1),
  place: place,
});
export type PresendLink = z.infer<typeof presendLink>;

export const presendSizes = z.object({
  htmlBytes: z.number().int().nonnegative(),
  textBytes: z.number().int().nonnegative(),
  attachmentsBytes: z.number().int().nonnegative(),
  /** The send request as it goes on the wire (attachments base64-encoded). */
  requestBytes: z.number().int().nonnegative(),
});

export const spamRule = z.object({
  name: z.string(),
  score: z.number(),
  description: z.string(),
  explanation: z.string(),
});
export type SpamRule = z.infer<typeof spamRule>;

export const spamResult = z.union([
  z.object({ score: z.number(), threshold: z.number(), isSpam: z.boolean(), rules: z.array(spamRule) }),
  z.object({ unavailable: z.string(), howToEnable: z.string().optional() }),
]);
export type SpamResult = z.infer<typeof spamResult>;

export const presendResult = z.object({
  findings: z.array(finding),
  links: z.array(presendLink),
  sizes: presendSizes,
  spam: spamResult.optional(),
});
export type PresendResult = z.infer<typeof presendResult>;

const webUrl = z
  .string()
  .max(2048, { error: "must be at most 2048 characters" })
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { error: "must be an http(s) URL" });

export const linkCheckRequest = z.object({
  urls: z
    .array(webUrl)
    .min(1, { error: "must list at least one link" })
    .max(MAX_LINKS_CHECKED, { error: `must list at most ${MAX_LINKS_CHECKED} links` }),
});
export type LinkCheckRequest = z.input<typeof linkCheckRequest>;

export const linkCheckOutcome = z.object({
  url: z.string(),
  ok: z.boolean(),
  status: z.number().int().nullable(),
  /** Where a redirect points (not followed). */
  location: z.string().nullable(),
  /** One plain sentence when the link failed or was not checked. */
  problem: z.string().nullable(),
  ms: z.number().int().nonnegative(),
});
export type LinkCheckOutcome = z.infer<typeof linkCheckOutcome>;
export const linkCheckResult = z.object({ results: z.array(linkCheckOutcome) });
export type LinkCheckResult = z.infer<typeof linkCheckResult>;
