/** The interface's webhooks shapes are the contract's: contract/wire/webhooks.ts. */
export * from "@/contract/wire/webhooks";
