import { INBOUND_EVENT_TYPES, OUTBOUND_EVENT_TYPES } from "@/contract/wire/words";

/** The interface's event types and event element are the contract's: contract/wire/events.ts. */
export * from "@/contract/wire/events";

/** How the webhook form groups the event types. */
export const EVENT_TYPE_GROUPS = {
  "Outbound lifecycle": OUTBOUND_EVENT_TYPES,
  Inbound: INBOUND_EVENT_TYPES,
} as const;
