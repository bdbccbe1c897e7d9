/** The interface's contacts shapes are the contract's: contract/wire/contacts.ts. */
export * from "@/contract/wire/contacts";
