import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/insight/thresholds";
import type { z } from "zod";
import type { alertSettingsForm, AlertSettingsView, RevealedWebhookSecret, SavedAlertSettings } from "@/lib/schemas/alerts";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db, type Db } from "@/lib/server/db";
import { alertSettings, type AlertSettingsRow } from "@/lib/server/db/schema/insight";
import { env } from "@/lib/server/env";
import { openSecret, sealSecret } from "@/lib/server/event-stream/secret-box";
import { requireRecentAuth } from "@/lib/server/gate/reauth";
import { redactUrl } from "@/contract/log/redact-url";

/**
 * Per project: the alert thresholds an admin chose (the defaults otherwise) and the optional
 * alert webhook. The webhook's signing secret is generated here, shown once, and kept only
 * sealed (AES-GCM under AUTH_SECRET), as the event stream's is.
 */
async function row(projectId: string, d?: Db): Promise<AlertSettingsRow | null> {
  const database = d ?? (await db());
  const [found] = await database.select().from(alertSettings).where(eq(alertSettings.projectId, projectId)).limit(1);
  return found ?? null;
}

export function thresholdsOf(r: AlertSettingsRow | null): Thresholds {
  return {
    bounceWarning: r?.bounceWarning ?? DEFAULT_THRESHOLDS.bounceWarning,
    bounceLimit: r?.bounceLimit ?? DEFAULT_THRESHOLDS.bounceLimit,
    complaintWarning: r?.complaintWarning ?? DEFAULT_THRESHOLDS.complaintWarning,
    complaintLimit: r?.complaintLimit ?? DEFAULT_THRESHOLDS.complaintLimit,
  };
}

export async function projectThresholds(projectId: string, d?: Db): Promise<Thresholds> {
  return thresholdsOf(await row(projectId, d));
}

/** Where a project's alerts are POSTed, with the secret that signs them: its own, else ALERT_WEBHOOK_URL; null when neither. */
export async function webhookTarget(projectId: string, d?: Db): Promise<{ url: string; secret: string } | null> {
  const r = await row(projectId, d);
  if (r?.webhookUrl && r.webhookSecretCiphertext) return { url: r.webhookUrl, secret: openSecret(r.webhookSecretCiphertext) };
  const e = env();
  return e.ALERT_WEBHOOK_URL && e.ALERT_WEBHOOK_SECRET ? { url: e.ALERT_WEBHOOK_URL, secret: e.ALERT_WEBHOOK_SECRET } : null;
}

export function fromInWords(): string {
  const from = env().ALERT_FROM;
  if (from) return from.name ? `${from.name} <${from.email}>` : from.email;
  return "alerts@ the project's first verified domain (set ALERT_FROM to choose)";
}

const pct = (v: number) => Number((v * 100).toPrecision(6));

/**
 * The webhook URL is shown masked to everyone, the admin who saved it included (secrets are
 * shown once): its credentials, query, fragment and token-like path segments are where a
 * receiver's token sits. Saving the masked form back keeps the stored URL (updateAlertSettings).
 */
export async function getAlertSettings(project: Project): Promise<AlertSettingsView> {
  const r = await row(project.id);
  const t = thresholdsOf(r);
  return {
    bounceWarning: pct(t.bounceWarning),
    bounceLimit: pct(t.bounceLimit),
    complaintWarning: pct(t.complaintWarning),
    complaintLimit: pct(t.complaintLimit),
    webhookUrl: r?.webhookUrl ? redactUrl(r.webhookUrl) : "",
    hasWebhookSecret: Boolean(r?.webhookSecretCiphertext),
    minVolume: env().ALERT_MIN_VOLUME,
    from: fromInWords(),
    updatedAt: r?.updatedAt.toISOString() ?? null,
    updatedBy: r?.updatedBy ?? null,
  };
}

/** `whsec_` and base64 of 32 random bytes, the Standard Webhooks form. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * Saves the thresholds and the webhook URL (audited). A URL set where there was none gets a
 * new signing secret, answered here once; changing the URL keeps the secret.
 */
export async function updateAlertSettings(actor: Actor, project: Project, form: z.output<typeof alertSettingsForm>): Promise<SavedAlertSettings> {
  const current = await row(project.id);
  // The form shows the masked URL: sent back unchanged, it means "keep the one saved".
  const url = current?.webhookUrl && form.webhookUrl === redactUrl(current.webhookUrl) ? current.webhookUrl : form.webhookUrl || null;
  const secret = url && !current?.webhookSecretCiphertext ? newSecret() : null;
  if (url && url !== current?.webhookUrl) await requireRecentAuth(actor);
  const values = {
    bounceWarning: form.bounceWarning / 100,
    bounceLimit: form.bounceLimit / 100,
    complaintWarning: form.complaintWarning / 100,
    complaintLimit: form.complaintLimit / 100,
    webhookUrl: url,
    webhookSecretCiphertext: url ? (secret ? sealSecret(secret) : current!.webhookSecretCiphertext) : null,
    updatedAt: new Date(),
    updatedBy: actor.email,
  };
  await withAudit(
    {
      actor,
      action: "alerts.settings.update",
      project: project.externalId,
      target: "alert settings",
      detail: {
        bounceWarningPct: form.bounceWarning,
        bounceLimitPct: form.bounceLimit,
        complaintWarningPct: form.complaintWarning,
        complaintLimitPct: form.complaintLimit,
        webhook: url ? redactUrl(url) : null,
        webhookSignerIssued: secret !== null,
      },
    },
    async () => {
      const d = await db();
      await d.insert(alertSettings).values({ projectId: project.id, ...values }).onConflictDoUpdate({ target: alertSettings.projectId, set: values });
    },
  );
  const view = await getAlertSettings(project);
  return secret ? { ...view, webhookSecret: secret } : view;
}

/** A new signing secret for the project's alert webhook, answered once (audited). */
export async function rotateWebhookSecret(actor: Actor, project: Project): Promise<RevealedWebhookSecret> {
  const current = await row(project.id);
  if (!current?.webhookUrl) throw new AppError(409, "no_webhook", "Set a webhook URL first; its signing secret is made then.", "webhookUrl");
  await requireRecentAuth(actor);
  const secret = newSecret();
  await withAudit({ actor, action: "alerts.webhook.secret.rotate", project: project.externalId, target: redactUrl(current.webhookUrl) }, async () => {
    const d = await db();
    await d.update(alertSettings).set({ webhookSecretCiphertext: sealSecret(secret), updatedAt: new Date(), updatedBy: actor.email }).where(eq(alertSettings.projectId, project.id));
  });
  return { webhookSecret: secret };
}
