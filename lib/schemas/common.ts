import { z } from "zod";

/** The interface's common shapes (addresses, pages, errors) are the contract's: contract/wire/common.ts. */
export * from "@/contract/wire/common";

/** An answer without a body (204), for lib/api-client.ts. */
export const noContent = z.undefined();

/**
 * A code of a second factor: a TOTP code ("123456") or a recovery code ("abcde-fghij"); only
 * presence and length are checked here, the server decides which it is (issue 29).
 */
export const factorCode = z.string({ error: "is required" }).trim().min(1, { error: "is required" }).max(40, { error: "must be at most 40 characters" });
