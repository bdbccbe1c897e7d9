/** The interface's send, batch, reply and message shapes are the contract's: contract/wire/emails.ts. */
export * from "@/contract/wire/emails";

/** What counts as final is the dashboard's reading of statuses (the vocabulary), not the wire's. */
export { FINAL_STATUSES } from "../messages/vocabulary";
