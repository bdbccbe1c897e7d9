"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { DEFAULT_THRESHOLDS } from "@/lib/insight/thresholds";
import type { AlertSettingsForm as FormValues, AlertSettingsInput, AlertSettingsView } from "@/lib/schemas/alerts";
import { alertMutations, insightKeys } from "@/lib/queries/insight";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Form, FormControl } from "@/components/ui/form";
import { FieldItem } from "@/components/common/field-item";
import { TextField } from "@/components/common/text-field";
import { FormSubmitRow } from "@/components/common/form-submit-row";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useReauth } from "@/components/reauth/reauth";
import { SecretReveal } from "@/components/common/secret-reveal";
import { THRESHOLD_FIELDS } from "./threshold-fields";

const FIELDS = ["bounceWarning", "bounceLimit", "complaintWarning", "complaintLimit", "webhookUrl"] as const;
const pct = (v: number) => Number((v * 100).toPrecision(6));
const DEFAULTS = {
  bounceWarning: pct(DEFAULT_THRESHOLDS.bounceWarning),
  bounceLimit: pct(DEFAULT_THRESHOLDS.bounceLimit),
  complaintWarning: pct(DEFAULT_THRESHOLDS.complaintWarning),
  complaintLimit: pct(DEFAULT_THRESHOLDS.complaintLimit),
};

/** zod and the schema load on the first check of a field (lib/lazy-resolver.ts). */
const resolver = lazyResolver<FormValues, unknown, AlertSettingsInput>(async () => {
  const [{ zodResolver }, { alertSettingsForm }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/alerts")]);
  return zodResolver(alertSettingsForm);
});


/**
 * The editor of the project's thresholds and alert webhook (audited), loaded when an admin
 * asks to change them (./alert-settings.tsx): react-hook-form and the form parts stay off the
 * alerts screen's first load. `onDone` closes it; it stays open after a save that reveals a
 * signing secret until that secret's dialog is closed.
 */
export function AlertSettingsForm({ project, settings, onDone }: { project: string; settings: AlertSettingsView; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { guarded, dialog: reauthDialog } = useReauth();
  const values = React.useMemo(
    () => ({
      bounceWarning: settings.bounceWarning,
      bounceLimit: settings.bounceLimit,
      complaintWarning: settings.complaintWarning,
      complaintLimit: settings.complaintLimit,
      webhookUrl: settings.webhookUrl,
    }),
    [settings],
  );
  const form = useForm<FormValues, unknown, AlertSettingsInput>({ resolver, defaultValues: values, mode: "onTouched" });
  React.useEffect(() => {
    if (!form.formState.isDirty) form.reset(values);
  }, [form, values]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: insightKeys.alerts(project) });

  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: AlertSettingsInput) => guarded(() => alertMutations.saveSettings(project, v)),
    gcTime: 0,
    onSuccess: (saved) => {
      form.reset({ bounceWarning: saved.bounceWarning, bounceLimit: saved.bounceLimit, complaintWarning: saved.complaintWarning, complaintLimit: saved.complaintLimit, webhookUrl: saved.webhookUrl });
      toast.success("Alert settings saved");
      void refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () => guarded(() => alertMutations.rotateWebhookSecret(project)),
    gcTime: 0,
  });
  const secret = mutation.data?.webhookSecret ?? rotate.data?.webhookSecret ?? null;

  return (
    <>
      <Form {...form}>
          <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {THRESHOLD_FIELDS.map((f, i) => (
                <FieldItem
                  key={f.name}
                  control={form.control}
                  name={f.name}
                  label={f.label}
                  render={(field) => (
                    <div className="flex items-center gap-2">
                      <FormControl>
                        <Input type="number" inputMode="decimal" step="any" min={0} max={100} className="tabular-nums" autoFocus={i === 0} {...field} value={field.value as number | string} />
                      </FormControl>
                      <span className="text-sm text-muted-foreground">%</span>
                    </div>
                  )}
                />
              ))}
            </div>
            <TextField
              control={form.control}
              name="webhookUrl"
              label="Webhook URL (optional)"
              type="url"
              spellCheck={false}
              placeholder="https://hooks.example.com/mail-alerts"
              description="Each alert is also POSTed here as JSON, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). A URL set for the first time gets a signing secret, shown once. A saved URL is shown with its credentials, query and tokens masked (***); leave it as it is to keep them."
            />
            <FormSubmitRow error={formError} pending={mutation.isPending} submitLabel="Save">
              <Button type="button" variant="ghost" onClick={onDone}>
                Close
              </Button>
              <Button type="button" variant="outline" onClick={() => form.reset({ ...DEFAULTS, webhookUrl: form.getValues("webhookUrl") }, { keepDefaultValues: true })}>
                Use the defaults
              </Button>
              {settings.hasWebhookSecret && settings.webhookUrl && (
                <ConfirmDialog
                  title="Make a new signing secret?"
                  description="The current secret stops working at once: the webhook's receiver must be given the new one, which is shown only now."
                  confirmLabel="Make a new secret"
                  onConfirm={() => rotate.mutateAsync()}
                  trigger={
                    <Button type="button" variant="outline">
                      New signing secret
                    </Button>
                  }
                />
              )}
            </FormSubmitRow>
          </form>
        </Form>
      {reauthDialog}
      <SecretReveal
        secret={secret}
        label="signing secret"
        title="Alert webhook signing secret"
        description={<>The receiver at <span className="break-all font-mono">{settings.webhookUrl || form.getValues("webhookUrl")}</span> verifies each alert with this secret.</>}
        onClose={() => {
          mutation.reset();
          rotate.reset();
        }}
      />
    </>
  );
}
