/** The interface's templates shapes are the contract's: contract/wire/templates.ts. */
export * from "@/contract/wire/templates";
