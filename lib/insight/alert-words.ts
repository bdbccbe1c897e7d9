import type { ActiveAlert, AlertHistoryItem } from "@/lib/schemas/alerts";
import { formatRate, formatThreshold, METRIC_WORDS, type Metric } from "./thresholds";

/** Alerts in words, the same on the banner, the Alerts screen and in the emails' subjects. */
export const WINDOW_WORDS: Record<string, string> = { "24h": "the last 24 hours", "7d": "the last 7 days" };
const windowWords = (w: string) => WINDOW_WORDS[w] ?? w;

export function activeAlertSentence(a: ActiveAlert): string {
  const words = METRIC_WORDS[a.metric];
  const where = a.level === "limit" ? `over the ${formatThreshold(a.threshold)} limit` : `above the ${formatThreshold(a.threshold)} warning level`;
  return `${words.label} ${where}: ${formatRate(a.window.rate)} over ${windowWords(a.window.window)} (${a.window.count.toLocaleString("en-US")} ${words.count} of ${a.window.volume.toLocaleString("en-US")} ${words.denominator}).`;
}

export function activeAlertAdvice(metric: Metric): string {
  return metric === "bounce"
    ? "Mailbox providers slow down or block senders whose bounces stay this high: see which provider bounces and why."
    : "Mailbox providers move mail to spam or block senders whose complaints stay this high: check who is being mailed and make unsubscribing easy.";
}

export function historyHeadline(item: Pick<AlertHistoryItem, "metric" | "kind" | "level">): string {
  const label = METRIC_WORDS[item.metric].label;
  if (item.kind === "recovered") return `${label} back to normal`;
  if (item.kind === "lowered") return `${label} back under the limit, still above the warning level`;
  return item.level === "limit" ? `${label} crossed the limit` : `${label} crossed the warning level`;
}
