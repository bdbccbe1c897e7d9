"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { API_KEY_SCOPES } from "@/lib/schemas/api-keys";
import { createApiKeyForm, type CreateApiKeyForm } from "@/lib/schemas/api-keys-form";
import { apiKeyKeys, apiKeyMutations } from "@/lib/queries/api-keys";
import { TextField } from "@/components/common/text-field";
import { WarningNote } from "@/components/common/warning-note";
import { CheckboxList } from "@/components/common/checkbox-list";
import { FormField, FormItem, FormMessage } from "@/components/ui/form";
import { SecretReveal } from "@/components/common/secret-reveal";
import { useReauth } from "@/components/reauth/reauth";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { useShell } from "@/components/shell/shell-context";

const FIELDS = ["name", "reach", "scopes"] as const;

/**
 * Create a key; its secret is shown once. The secret is only ever the result of this
 * mutation (gcTime 0, never put in the query cache) and the mutation is reset when the
 * reveal dialog closes, so nothing in the page keeps it afterwards.
 */
export default function CreateKeyDialogForm({ project, projectName, ...lazy }: { project: string; projectName: string } & LazyDialogProps) {
  const queryClient = useQueryClient();
  const { guarded, dialog: reauthDialog } = useReauth();
  const accountWideAllowed = useShell().can("api_keys:account_wide");
  const form = useForm<CreateApiKeyForm>({
    resolver: zodResolver(createApiKeyForm),
    defaultValues: { name: "", reach: "project", scopes: ["emails:send"] },
    mode: "onTouched",
  });
  const { mutation, dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (values: CreateApiKeyForm) => guarded(() => apiKeyMutations.create(project, values)),
    gcTime: 0,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(project) });
    },
  });
  const reach = form.watch("reach");
  const created = mutation.data ?? null;

  return (
    <>
      <FormDialog
        {...dialog}
        className="max-h-[90vh] overflow-y-auto"
        title="Create an API key"
        description="Name it after the application that will use it, so you know later what to revoke."
        submitLabel="Create key"
      >
        <TextField control={form.control} name="name" label="Name" placeholder="Staging app" />
        <FormField
          control={form.control}
          name="reach"
          render={({ field }) => (
            <FormItem>
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-sm font-medium">Reach</legend>
                <label className="flex items-start gap-2 text-sm">
                  <input type="radio" name={field.name} value="project" checked={field.value === "project"} onChange={() => field.onChange("project")} className="mt-1" />
                  <span>
                    This project only <span className="text-muted-foreground">({projectName})</span>
                  </span>
                </label>
                <label className="flex items-start gap-2 text-sm has-disabled:text-muted-foreground">
                  <input
                    type="radio"
                    name={field.name}
                    value="account"
                    checked={field.value === "account"}
                    onChange={() => field.onChange("account")}
                    disabled={!accountWideAllowed}
                    aria-describedby={accountWideAllowed ? undefined : "account-wide-reason"}
                    className="mt-1"
                  />
                  <span>
                    Account-wide (every project)
                    {!accountWideAllowed && (
                      <span id="account-wide-reason" className="block text-xs">
                        Only an admin with access to every project may create an account-wide key.
                      </span>
                    )}
                  </span>
                </label>
              </fieldset>
              {reach === "account" && (
                <WarningNote>
                  An account-wide key works for every project of the account, present and future: it can send as any of their domains and read their
                  messages, within its scopes. Prefer a key for this project unless one application really serves several.
                </WarningNote>
              )}
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <FormItem>
              <fieldset>
                <legend className="mb-2 text-sm font-medium">Scopes</legend>
                <CheckboxList options={API_KEY_SCOPES} value={field.value} onChange={field.onChange} className="grid grid-cols-2 gap-x-4 gap-y-2" />
              </fieldset>
              <p className="text-xs text-muted-foreground">Give the least the application needs; full_access includes every other scope.</p>
              <FormMessage />
            </FormItem>
          )}
        />
      </FormDialog>
      {reauthDialog}
      <SecretReveal
        secret={created?.secret ?? null}
        label="API key"
        title={`API key “${created?.name ?? ""}”`}
        description={created?.project ? `For project ${created.project}, scopes: ${created.scopes.join(", ")}.` : `Account-wide, scopes: ${created?.scopes.join(", ") ?? ""}.`}
        onClose={() => mutation.reset()}
      />
    </>
  );
}
