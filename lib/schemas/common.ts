import { z } from "zod";

/** The interface's common shapes (addresses, pages, errors) are the contract's: contract/wire/common.ts. */
export * from "@/contract/wire/common";

/** An answer without a body (204), for lib/api-client.ts. */
export const noContent = z.undefined();
