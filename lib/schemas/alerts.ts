import { z } from "zod";

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

export type ActiveAlert = {
  metric: "bounce" | "complaint";
  level: "warning" | "limit";
  since: string;
  /** The window that decided the level. */
  window: AlertWindow;
  threshold: number;
};

export type AlertDeliveryView = { channel: "email" | "webhook"; target: string; status: string; attempts: number; lastError: string | null; sentAt: string | null };

export type AlertHistoryItem = {
  id: string;
  metric: "bounce" | "complaint";
  kind: "raised" | "lowered" | "recovered";
  level: string;
  previousLevel: string;
  window: string;
  rate: number | null;
  threshold: number | null;
  windows: AlertWindow[];
  note: string | null;
  at: string;
  deliveries: AlertDeliveryView[];
};

export type AlertSettingsView = {
  /** In percent, as the form edits them. */
  bounceWarning: number;
  bounceLimit: number;
  complaintWarning: number;
  complaintLimit: number;
  webhookUrl: string;
  hasWebhookSecret: boolean;
  /** ALERT_MIN_VOLUME: a window with fewer messages (sent, or delivered for complaints) is not judged. */
  minVolume: number;
  /** Where alert emails come from, in words (ALERT_FROM, or the project's first verified domain). */
  from: string;
  updatedAt: string | null;
  updatedBy: string | null;
};

export type AlertsView = {
  active: ActiveAlert[];
  states: { metric: "bounce" | "complaint"; level: string; since: string; windows: AlertWindow[]; evaluatedAt: string }[];
  history: AlertHistoryItem[];
  settings: AlertSettingsView;
  checkEverySeconds: number;
};

/** The banner's answer: only what every screen of the project needs. */
export type ActiveAlertsView = { active: ActiveAlert[] };

export type RevealedWebhookSecret = { webhookSecret: string };
