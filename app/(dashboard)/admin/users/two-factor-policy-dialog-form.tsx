"use client";

import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { ROLES, ROLE_LABELS, type Role } from "@/lib/permissions";
import { twoFactorPolicy, type TwoFactorPolicy } from "@/lib/schemas/two-factor";
import { twoFactorPolicyKeys, twoFactorPolicyMutations, twoFactorPolicyQuery } from "@/lib/queries/two-factor";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { Checkbox } from "@/components/ui/checkbox";
import { FormError } from "@/components/ui/form-error";

/**
 * Roles whose users must sign in with a second factor. A password user of a checked role
 * without one is held on their Account screen until they set it up; single-sign-on users
 * rely on their identity provider.
 */
export default function TwoFactorPolicyDialogForm({ open, onOpenChange, trigger }: LazyDialogProps) {
  const queryClient = useQueryClient();
  const policy = useQuery({ ...twoFactorPolicyQuery(), enabled: open });
  const form = useForm<TwoFactorPolicy>({ resolver: zodResolver(twoFactorPolicy), defaultValues: { requiredRoles: [] } });
  const loaded = policy.data;
  React.useEffect(() => {
    if (loaded) form.reset(loaded);
  }, [loaded, form]);
  const { dialog } = useFormDialogMutation(form, ["requiredRoles"], {
    mutationFn: twoFactorPolicyMutations.set,
    onSuccess: (saved) => {
      queryClient.setQueryData(twoFactorPolicyKeys.policy(), saved);
      onOpenChange(false);
      toast.success("Two-factor rules saved", {
        description: saved.requiredRoles.length ? `Required for: ${saved.requiredRoles.map((r) => ROLE_LABELS[r]).join(", ")}.` : "No role requires it.",
      });
    },
  });
  const selected = form.watch("requiredRoles");
  const toggle = (role: Role, on: boolean) => form.setValue("requiredRoles", on ? [...selected, role] : selected.filter((r) => r !== role), { shouldDirty: true });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      title="Two-factor sign-in rules"
      description="Users of a checked role must set up an authenticator app or a passkey: until they do, the dashboard shows them only their Account screen. Users who sign in through single sign-on rely on their identity provider."
      {...dialog}
      submitLabel="Save rules"
    >
      {policy.error && <FormError message={policy.error.message} />}
      <fieldset disabled={!loaded} className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Require a second factor for</legend>
        {ROLES.map((role) => (
          <label key={role} className="flex items-center gap-2 text-sm">
            <Checkbox checked={selected.includes(role)} onCheckedChange={(c) => toggle(role, c === true)} />
            {ROLE_LABELS[role]}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}
