import { z } from "zod";
import { thresholdsView } from "./insight";

/**
 * Alert settings as the form and the route speak them: thresholds in percent (2 means 2 %),
 * and the optional webhook URL (empty: none).
 */
const percent = z.coerce
  .number({ error: "must be a number" })
  .gt(0, { error: "must be more than 0 %" })
  .max(100, { error: "must be at most 100 %" });

export const alertSettingsForm = z
  .object({
    bounceWarning: percent,
    bounceLimit: percent,
    complaintWarning: percent,
    complaintLimit: percent,
    webhookUrl: z
      .string()
      .trim()
      .max(2000, { error: "must be at most 2000 characters" })
      .refine((v) => v === "" || /^https?:\/\/[^\s/?#]+/i.test(v), { error: "must be an http(s) URL like https://hooks.example.com/alerts" })
      .refine((v) => v === "" || URL.canParse(v), { error: "is not a valid URL" })
      .default(""),
  })
  .superRefine((v, ctx) => {
    if (v.bounceWarning >= v.bounceLimit) ctx.addIssue({ code: "custom", path: ["bounceWarning"], message: "must be below the bounce limit" });
    if (v.complaintWarning >= v.complaintLimit) ctx.addIssue({ code: "custom", path: ["complaintWarning"], message: "must be below the complaint limit" });
  });
export type AlertSettingsForm = z.input<typeof alertSettingsForm>;
export type AlertSettingsInput = z.output<typeof alertSettingsForm>;

export const alertWindowFigures = z.object({
  window: z.string(),
  rate: z.number().nullable(),
  count: z.number(),
  volume: z.number(),
  enough: z.boolean(),
  level: z.string(),
});
export type AlertWindow = z.infer<typeof alertWindowFigures>;

const alertMetric = z.enum(["bounce", "complaint"]);

export const activeAlert = z.object({
  metric: alertMetric,
  level: z.enum(["warning", "limit"]),
  since: z.string(),
  /** The window that decided the level. */
  window: alertWindowFigures,
  threshold: z.number(),
});
export type ActiveAlert = z.infer<typeof activeAlert>;

export const alertDeliveryView = z.object({
  channel: z.enum(["email", "webhook"]),
  target: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type AlertDeliveryView = z.infer<typeof alertDeliveryView>;

export const alertHistoryItem = z.object({
  id: z.string(),
  metric: alertMetric,
  kind: z.enum(["raised", "lowered", "recovered"]),
  level: z.string(),
  previousLevel: z.string(),
  window: z.string(),
  rate: z.number().nullable(),
  threshold: z.number().nullable(),
  windows: z.array(alertWindowFigures),
  note: z.string().nullable(),
  at: z.string(),
  deliveries: z.array(alertDeliveryView),
});
export type AlertHistoryItem = z.infer<typeof alertHistoryItem>;

/** The four thresholds of `thresholdsView`, here in percent as the form edits them. */
export const alertSettingsView = thresholdsView.extend({
  webhookUrl: z.string(),
  hasWebhookSecret: z.boolean(),
  /** ALERT_MIN_VOLUME: a window with fewer messages (sent, or delivered for complaints) is not judged. */
  minVolume: z.number(),
  /** Where alert emails come from, in words (ALERT_FROM, or the project's first verified domain). */
  from: z.string(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type AlertSettingsView = z.infer<typeof alertSettingsView>;

export const alertsView = z.object({
  active: z.array(activeAlert),
  states: z.array(z.object({ metric: alertMetric, level: z.string(), since: z.string(), windows: z.array(alertWindowFigures), evaluatedAt: z.string() })),
  history: z.array(alertHistoryItem),
  settings: alertSettingsView,
  checkEverySeconds: z.number(),
});
export type AlertsView = z.infer<typeof alertsView>;

/** The banner's answer: only what every screen of the project needs. */
export const activeAlertsView = z.object({ active: z.array(activeAlert) });
export type ActiveAlertsView = z.infer<typeof activeAlertsView>;

/** The one-time answer of rotating (or first setting) the alert webhook's signing secret. */
export const revealedWebhookSecret = z.object({ webhookSecret: z.string() });
export type RevealedWebhookSecret = z.infer<typeof revealedWebhookSecret>;

/** Saving the settings answers the settings, and the new secret when one was made. */
export const savedAlertSettings = alertSettingsView.extend({ webhookSecret: z.string().optional() });
export type SavedAlertSettings = z.infer<typeof savedAlertSettings>;
