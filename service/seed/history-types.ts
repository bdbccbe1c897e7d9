import type { MessageRow } from "../lib/events";
import type { TemplateParts } from "../lib/render";
import type { Kind } from "./content";
import type { PlannedEvent } from "./lifecycle";
import type { Person } from "./people";

/** The shapes of a generated history, apart from history.ts so threads.ts can name them without a cycle. */
export type HistoryProfile = {
  people: number;
  /** Share of the people who sign up inside the window (each gets a welcome). */
  newShare: number;
  /** Weight of company domains against the consumer providers. */
  companyBias: number;
  /** Transactional messages on an average weekday. */
  perDay: number;
  kinds: readonly (readonly [Exclude<Kind, "reply" | "welcome" | "digest">, number])[];
  /** Weekly product digest (Tuesdays, 14:00 UTC) to the people who subscribed. */
  digest: boolean;
  digestShare: number;
  /** Customers answering a message, and new questions; support answers most of them. */
  replies: number;
  questions: number;
  /** Sends scheduled in the coming days. */
  scheduled: number;
  /** A short window on one day in which receipts were sent without `total` (a deploy bug). */
  renderingIncident: boolean;
};

export type TemplateSlug = "receipt" | "welcome" | "password-reset";

export type HistoryInput = {
  seed: number;
  now: Date;
  days: number;
  projectId: string;
  domain: string;
  fromName: string;
  templates: Record<TemplateSlug, TemplateParts & { id: string }>;
  profile: HistoryProfile;
};

export type HistoryEvent = { messageId: string; type: PlannedEvent["type"]; data: Record<string, unknown>; createdAt: Date };
export type HistoryPlan = {
  messages: MessageRow[];
  /** In order: by message, each message's events oldest first (the order the service reads them back in). */
  events: HistoryEvent[];
  suppressions: { email: string; reason: string; messageId: string | null; createdAt: Date }[];
  /** Send jobs of the scheduled messages, due at their `scheduledAt`. */
  scheduled: { messageId: string; runAt: Date }[];
  /** Who received what, for the statistics and tests. */
  recipients: Map<string, Person>;
};
