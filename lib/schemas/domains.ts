import { z } from "zod";
import { hostname } from "@/contract/wire/domains";

/** The interface's domain shapes are the contract's: contract/wire/domains.ts. */
export * from "@/contract/wire/domains";

/** Our API's add-domain body. */
export const addDomainRequest = z.object({ domain: hostname });
