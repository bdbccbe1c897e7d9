/**
 * Rates held against the levels mailbox providers enforce. Browser-safe: the overview, the
 * provider table, the banner and the alert checks all read rates through here, so a colour
 * on a screen and an alert on the server always agree.
 *
 * Defaults: bounces 2 % (warning) and 4 % (limit), complaints 0.08 % and 0.1 % — Google's and
 * Yahoo's sender requirements put the spam-complaint limit at 0.3 % and ask senders to stay
 * under 0.1 %; common ESP limits put hard bounces at 4 %.
 */
import type { ThresholdsView } from "@/lib/schemas/insight";

export const METRICS = ["bounce", "complaint"] as const;
export type Metric = (typeof METRICS)[number];

/** The shape lives with the API shapes (lib/schemas/insight.ts): the screens receive it. */
export type Thresholds = ThresholdsView;
export const DEFAULT_THRESHOLDS: Thresholds = { bounceWarning: 0.02, bounceLimit: 0.04, complaintWarning: 0.0008, complaintLimit: 0.001 };

export const LEVELS = ["ok", "warning", "limit"] as const;
export type Level = (typeof LEVELS)[number];
export const levelRank = (level: string): number => Math.max(0, LEVELS.indexOf(level as Level));

export const METRIC_WORDS: Record<Metric, { label: string; rate: string; denominator: string; count: string }> = {
  bounce: { label: "Bounce rate", rate: "bounce rate", denominator: "sent", count: "bounced" },
  complaint: { label: "Complaint rate", rate: "complaint rate", denominator: "delivered", count: "marked as spam" },
};

export function levelsOf(metric: Metric, t: Thresholds): { warning: number; limit: number } {
  return metric === "bounce" ? { warning: t.bounceWarning, limit: t.bounceLimit } : { warning: t.complaintWarning, limit: t.complaintLimit };
}

/** The level a rate is at; null rate (nothing to divide by) is ok. */
export function levelOf(rate: number | null, levels: { warning: number; limit: number }): Level {
  if (rate === null) return "ok";
  if (rate >= levels.limit) return "limit";
  if (rate >= levels.warning) return "warning";
  return "ok";
}

/**
 * Going down a level needs the rate a tenth under that level's threshold, so a rate hovering
 * at a threshold does not raise and clear an alert on every check.
 */
export const RECOVERY_MARGIN = 0.9;

export function nextLevel(current: Level, rate: number | null, levels: { warning: number; limit: number }): Level {
  const measured = levelOf(rate, levels);
  if (levelRank(measured) >= levelRank(current)) return measured;
  // Lower: only as far as the margin allows.
  const eased = levelOf(rate === null ? null : rate / RECOVERY_MARGIN, levels);
  return levelRank(eased) < levelRank(current) ? eased : current;
}

/** A measured rate: "7.1%", "0.35%" (two decimals under 1 %, where the complaint thresholds are). */
export function formatRate(rate: number | null): string {
  if (rate === null) return "—";
  return `${(rate * 100).toFixed(rate < 0.01 ? 2 : 1)}%`;
}

/** A threshold as people write it: "4%", "0.1%", "0.08%". */
export function formatThreshold(rate: number): string {
  return `${Number((rate * 100).toPrecision(6))}%`;
}

export const LEVEL_WORDS: Record<Level, string> = { ok: "Within the thresholds", warning: "Above the warning level", limit: "Above the limit" };

/** "twice", "three times"… for how far one rate stands above another. */
export function timesWords(ratio: number): string {
  const n = Math.round(ratio);
  if (n <= 1) return `${ratio.toFixed(1)} times`;
  const words = ["", "", "twice", "three times", "four times", "five times", "six times", "seven times", "eight times", "nine times", "ten times"];
  return words[n] ?? `${n} times`;
}
