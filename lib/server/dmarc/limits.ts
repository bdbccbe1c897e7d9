/**
 * Bounds on the work one DMARC aggregate report can cause (README, "Limits and outbound
 * requests"). Each is checked before or while the work happens, never after: a report is
 * mail anyone can send to the rua address, so every part of it is untrusted.
 */
export const DMARC_LIMITS = {
  /** Bytes of one attachment as downloaded (compressed): checked on the listing's size and while reading. */
  attachmentBytes: 5 * 1024 * 1024,
  /** Bytes of XML after decompression, counted during inflate: a bomb stops here. */
  xmlBytes: 10 * 1024 * 1024,
  /** Decompressed over compressed bytes, checked once the output passes ratioFloorBytes. */
  ratio: 200,
  ratioFloorBytes: 1024 * 1024,
  /** Files in a zip: a report is one .xml file. */
  zipEntries: 1,
  /** <record> elements in one report. */
  records: 10_000,
  /** Depth of XML elements (the format needs 5). */
  nesting: 16,
  /** Report attachments looked at per message (RFC 7489 sends one report per message). */
  attachmentsPerMessage: 3,
  /** Reverse-DNS look-ups per report (the most-sending sources first), each with a timeout, cached. */
  reverseLookups: 20,
  reverseTimeoutMs: 2_000,
  reverseCacheMs: 24 * 60 * 60_000,
  /**
   * Reports kept (until INDEX_RETENTION_DAYS prunes them): how many arrive is up to whoever
   * mails the rua address, so what is stored is capped. Per project and over all projects,
   * checked before a report is downloaded; per domain and day (a few dozen reporters send
   * one a day each) and the records per project, checked once the report is parsed, before
   * it is stored. A report over a cap is skipped, its job's outcome says which cap.
   */
  reportsPerProject: 5_000,
  reportsTotal: 50_000,
  reportsPerDomainDay: 50,
  recordsPerProject: 1_000_000,
} as const;

/** The same shape with any numbers: tests narrow a limit to reach it cheaply. */
export type DmarcLimits = { [K in keyof typeof DMARC_LIMITS]: number };
