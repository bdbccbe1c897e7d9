/** The interface's limits are the contract's (contract/wire/limits.ts); the dashboard's own follow. */
export * from "@/contract/wire/limits";

/** Rows of one CSV file (batch send or contact import); checked on the server in slices. */
export const MAX_FILE_ROWS = 100_000;
