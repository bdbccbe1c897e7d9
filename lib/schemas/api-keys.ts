/** The interface's api keys shapes are the contract's: contract/wire/api-keys.ts. */
export * from "@/contract/wire/api-keys";
