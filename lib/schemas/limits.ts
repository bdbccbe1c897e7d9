/** The interface's limits are the contract's (contract/wire/limits.ts); the dashboard's own follow. */
export * from "@/contract/wire/limits";

/** Rows of one CSV file (batch send or contact import); checked on the server in slices. */
export const MAX_FILE_ROWS = 100_000;

/**
 * A list of addresses to suppress (pasted or a CSV of `email` and optional `reason`): at most
 * 10,000 addresses, each line at most 1,000 characters (an address is at most 254), and so at
 * most 10 MB. All checked before the list is parsed or the service asked anything.
 */
export const MAX_SUPPRESSION_ROWS = 10_000;
export const MAX_SUPPRESSION_LINE_CHARS = 1_000;
export const MAX_SUPPRESSION_LIST_CHARS = 10 * 1024 * 1024;
