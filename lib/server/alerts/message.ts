import "server-only";
import { formatRate, formatThreshold, METRIC_WORDS, type Level, type Metric } from "@/lib/insight/thresholds";
import type { AlertWindowFigures } from "@/lib/server/db/schema/insight";
import { env } from "@/lib/server/env";
import { ALERT_WINDOWS } from "./evaluate";

/** What an alert says, in the email and in the webhook's body. */
export type AlertContent = {
  projectExternalId: string;
  projectName: string;
  metric: Metric;
  kind: string;
  level: Level;
  previousLevel: Level;
  rate: number | null;
  threshold: number | null;
  window: string;
  windows: AlertWindowFigures[];
  at: Date;
};

const windowWords = (key: string) => ALERT_WINDOWS.find((w) => w.key === key)?.words ?? key;
const LEVEL_NAME: Record<Level, string> = { ok: "normal", warning: "the warning level", limit: "the limit" };

export function alertsUrl(project: string): string {
  return new URL(`/p/${encodeURIComponent(project)}/alerts`, env().PUBLIC_URL).toString();
}

export function alertSubject(c: AlertContent): string {
  const words = METRIC_WORDS[c.metric];
  const what =
    c.kind === "recovered"
      ? `${words.label} back to normal: ${formatRate(c.rate)} over ${windowWords(c.window)}`
      : `${words.label} above ${LEVEL_NAME[c.level]}: ${formatRate(c.rate)} over ${windowWords(c.window)}`;
  return `[${c.projectName}] ${what}`;
}

function figureLines(c: AlertContent): string[] {
  const words = METRIC_WORDS[c.metric];
  return c.windows.map(
    (w) => `- ${windowWords(w.window)}: ${formatRate(w.rate)} (${w.count.toLocaleString("en-US")} ${words.count} of ${w.volume.toLocaleString("en-US")} ${words.denominator})${w.enough ? "" : " — too few messages to judge"}`,
  );
}

export function alertText(c: AlertContent): string {
  const words = METRIC_WORDS[c.metric];
  const head =
    c.kind === "recovered"
      ? `The ${words.rate} of ${c.projectName} (${c.projectExternalId}) is back under the warning level.`
      : `The ${words.rate} of ${c.projectName} (${c.projectExternalId}) crossed ${LEVEL_NAME[c.level]} (${c.threshold === null ? "—" : formatThreshold(c.threshold)}): ${formatRate(c.rate)} over ${windowWords(c.window)}.`;
  const advice =
    c.kind === "recovered"
      ? ""
      : c.metric === "bounce"
        ? "Mailbox providers slow down or block senders whose bounce rate stays this high. Look at the bounce reasons on the Deliverability screen and stop mailing addresses that bounce."
        : "Mailbox providers send mail to spam or block senders whose complaint rate stays this high. Check who is being mailed and make unsubscribing easy.";
  return [head, "", `The ${words.rate} (${words.count} ÷ ${words.denominator}):`, ...figureLines(c), "", advice, "", `Alerts and their history: ${alertsUrl(c.projectExternalId)}`, "", `Checked at ${c.at.toISOString()}. You receive this as an admin of the mail dashboard.`]
    .filter((line, i, all) => !(line === "" && all[i - 1] === ""))
    .join("\n");
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

export function alertHtml(c: AlertContent): string {
  const paragraphs = alertText(c).split("\n\n");
  const body = paragraphs
    .map((p) => {
      const lines = p.split("\n");
      if (lines.every((l) => l.startsWith("- ") || l.endsWith(":"))) {
        const [title, ...items] = lines[0]!.startsWith("- ") ? ["", ...lines] : lines;
        return `${title ? `<p>${escape(title)}</p>` : ""}<ul>${items.map((l) => `<li>${escape(l.slice(2))}</li>`).join("")}</ul>`;
      }
      const url = alertsUrl(c.projectExternalId);
      return `<p>${escape(p).replace(escape(url), `<a href="${escape(url)}">${escape(url)}</a>`)}</p>`;
    })
    .join("\n");
  return `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#18181b">${body}</body></html>`;
}

/** The webhook's JSON body. */
export function alertPayload(c: AlertContent, deliveryId: string) {
  return {
    type: c.kind === "recovered" ? "alert.recovered" : c.kind === "raised" ? "alert.raised" : "alert.lowered",
    id: deliveryId,
    createdAt: c.at.toISOString(),
    data: {
      project: { id: c.projectExternalId, name: c.projectName },
      metric: c.metric,
      level: c.level,
      previousLevel: c.previousLevel,
      window: c.window,
      rate: c.rate,
      threshold: c.threshold,
      windows: c.windows,
      url: alertsUrl(c.projectExternalId),
    },
  };
}
