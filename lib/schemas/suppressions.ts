import { z } from "zod";
import { page } from "@/contract/wire/common";
import { suppression } from "@/contract/wire/suppressions";

/** The interface's suppression shapes are the contract's: contract/wire/suppressions.ts. */
export * from "@/contract/wire/suppressions";

/** A suppression as our API lists it: with the message behind it, when the service or the message index knows it. */
export const suppressionRow = suppression.extend({ linkedMessageId: z.string().nullable() });
export type SuppressionRow = z.infer<typeof suppressionRow>;
export const suppressionRowPage = page(suppressionRow);
