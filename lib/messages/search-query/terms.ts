import type { MessageStatus } from "@/lib/messages/vocabulary";

/** One understood term of a search. Every term can be negated (`-tag:beta`). */
export type SearchTerm = { negated: boolean; raw: string } & (
  | { field: "to" | "from" | "cc"; value: string }
  | { field: "subject"; value: string }
  | { field: "tag"; name: string; value: string | null }
  | { field: "status"; value: MessageStatus }
  | { field: "direction"; value: "inbound" | "outbound" }
  | { field: "id"; value: string }
  | { field: "has"; value: "attachment" }
  /** An ISO date-time: the message was created before (exclusive) or at/after (inclusive) it. */
  | { field: "before" | "after"; at: string }
  /** A free word or quoted phrase: matched against the subject and the addresses. */
  | { field: "text"; value: string; phrase: boolean }
);
export type SearchField = SearchTerm["field"];

/** A term the dashboard did not understand: left out of the search and explained beside the box. */
export type SearchProblem = { term: string; why: string; example: string };

/** The help popover's list, and the examples problems point to. */
export const SEARCH_TERM_HELP: readonly { term: string; meaning: string; example: string }[] = [
  { term: "word, \"a phrase\"", meaning: "in the subject or the sender; a whole address in any role", example: "\"order shipped\"" },
  { term: "to:, from:, cc:", meaning: "an address, or part of one", example: "to:ada@example.com" },
  { term: "subject:", meaning: "a word or phrase of the subject", example: "subject:\"your order\"" },
  { term: "tag:", meaning: "a tag by name, or name=value", example: "tag:plan=pro" },
  { term: "status:", meaning: "a status or an event word", example: "status:bounced" },
  { term: "direction:", meaning: "inbound or outbound", example: "direction:inbound" },
  { term: "id:", meaning: "one message id", example: "id:msg_123" },
  { term: "has:attachment", meaning: "sent with attachments", example: "has:attachment" },
  { term: "after:, before:", meaning: "a date, a date-time (UTC unless it says) or an age: 30m, 2h, 7d, 4w", example: "after:7d before:2026-11-01" },
  { term: "-term", meaning: "leaves out what the term matches", example: "-tag:test" },
];
