import { canonicalEventType, canonicalStatus, wordKey } from "@/lib/messages/vocabulary";
import type { StatusTone } from "@/components/common/status-tones";
import {
  BanIcon,
  BadgeCheckIcon,
  CircleCheckIcon,
  CircleHelpIcon,
  CircleXIcon,
  ClockIcon,
  FlagIcon,
  HourglassIcon,
  InboxIcon,
  LoaderIcon,
  MailOpenIcon,
  MousePointerClickIcon,
  SendIcon,
  TimerIcon,
  Undo2Icon,
  type LucideIcon,
} from "lucide-react";

/** Event types whose state is not a message status word of the vocabulary. */
const EVENT_STATES: Record<string, string> = { inbound_rejected: "rejected", rendering_failure: "failed" };

/**
 * One colour and one icon per state, used on every screen, so "bounced" looks the same in
 * the message list, the timeline and the suppression that came from it. The colours are in
 * components/common/status-tones.ts.
 */
export type StatusStyle = { label: string; tone: StatusTone; icon: LucideIcon; description: string };

export const STATUS_STYLES: Record<string, StatusStyle> = {
  queued: { label: "Queued", tone: "neutral", icon: ClockIcon, description: "Accepted and waiting to be sent" },
  scheduled: { label: "Scheduled", tone: "info", icon: TimerIcon, description: "Will be sent at the scheduled time" },
  sending: { label: "Sending", tone: "progress", icon: LoaderIcon, description: "Being handed to the receiving server" },
  sent: { label: "Sent", tone: "info", icon: SendIcon, description: "Handed to the receiving server" },
  delivered: { label: "Delivered", tone: "success", icon: CircleCheckIcon, description: "The receiving server accepted it" },
  delayed: { label: "Delayed", tone: "warning", icon: HourglassIcon, description: "Delivery is delayed; it will be retried" },
  bounced: { label: "Bounced", tone: "danger", icon: Undo2Icon, description: "The receiving server refused it" },
  complained: { label: "Complained", tone: "attention", icon: FlagIcon, description: "The recipient marked it as spam" },
  rejected: { label: "Rejected", tone: "danger", icon: BanIcon, description: "Not sent: refused before sending" },
  failed: { label: "Failed", tone: "danger", icon: CircleXIcon, description: "It could not be processed" },
  received: { label: "Received", tone: "inbound", icon: InboxIcon, description: "Inbound mail received" },
  pending: { label: "Pending", tone: "warning", icon: HourglassIcon, description: "Waiting for verification" },
  verified: { label: "Verified", tone: "success", icon: BadgeCheckIcon, description: "Verified" },
  canceled: { label: "Canceled", tone: "neutral", icon: BanIcon, description: "Canceled before sending" },
  // Engagement events (timeline): not states of their own, but worth telling apart.
  open: { label: "Opened", tone: "success", icon: MailOpenIcon, description: "The recipient opened it" },
  click: { label: "Link clicked", tone: "success", icon: MousePointerClickIcon, description: "The recipient clicked a link in it" },
  // Outcomes of dashboard actions (audit log, batch items).
  success: { label: "Success", tone: "success", icon: CircleCheckIcon, description: "It was done" },
};


function titleCase(value: string): string {
  const words = value.replace(/[_-]+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "Unknown";
}

/**
 * Known states get their style; anything else (a word of another service, a newer state)
 * renders neutrally under its own name. Words are read through the vocabulary
 * (lib/messages/vocabulary.ts), so `DELIVERED`, `delivery` and `email.delivered` are one
 * state; a word with a style of its own (domain `pending`, `verified`, `failed`) keeps it.
 */
export function statusStyle(status: string | null | undefined): StatusStyle & { key: string; known: boolean } {
  const word = (status ?? "").trim();
  const own = wordKey(word);
  const candidates = [own, canonicalStatus(word), canonicalStatus(canonicalEventType(word)), EVENT_STATES[canonicalEventType(word)]];
  for (const key of candidates) {
    if (key && Object.hasOwn(STATUS_STYLES, key)) return { ...STATUS_STYLES[key], key, known: true };
  }
  return { label: word ? titleCase(word) : "Unknown", tone: "neutral", icon: CircleHelpIcon, description: "A state this dashboard does not know", key: own || "unknown", known: false };
}
