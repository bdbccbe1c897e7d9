"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { BanIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { ApiKeyListItem, KeyRevokeSupport } from "@/lib/schemas/api-keys-form";
import { apiKeyKeys, apiKeyMutations } from "@/lib/queries/api-keys";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { useShell } from "@/components/shell/shell-context";

/** Why this key cannot be revoked from here, or null when it can. */
export function revokeBlockedReason(key: ApiKeyListItem, support: KeyRevokeSupport, canAccountWide: boolean): string | null {
  if (support === "unsupported") return "The email service cannot revoke keys through its API: revoke this key in the provider's console.";
  if (key.project === null && !canAccountWide) return "Only an admin with access to every project may revoke an account-wide key.";
  return null;
}

/**
 * Revoke, after a confirmation naming the key and the consequence. The server tries the
 * service's revoke operation; a service without it answers that the key must be revoked at
 * the provider, which the dialog shows in place.
 */
export function RevokeKeyButton({ project, apiKey, support }: { project: string; apiKey: ApiKeyListItem; support: KeyRevokeSupport }) {
  const queryClient = useQueryClient();
  const { can } = useShell();
  const blocked = revokeBlockedReason(apiKey, support, can("api_keys:account_wide"));
  const label = `Revoke key ${apiKey.name}`;
  const revoke = useMutation({
    mutationFn: () => apiKeyMutations.revoke(project, apiKey.id),
    onSuccess: () => toast.success("Key revoked", { description: `${apiKey.name} no longer works.` }),
    // Also after "not supported": the list then shows why revoking is unavailable.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(project) }),
  });
  if (blocked) {
    return (
      <span title={blocked} className="inline-flex">
        <Button variant="ghost" size="sm" disabled aria-label={`${label}: ${blocked}`}>
          <BanIcon aria-hidden="true" />
          Revoke
        </Button>
      </span>
    );
  }
  return (
    <ConfirmDialog
      title={`Revoke the key “${apiKey.name}”?`}
      description={
        <>
          Applications using it stop being able to {apiKey.project ? `use project ${apiKey.project}` : "use any project of the account"} at once. This cannot
          be undone: a new key means a new secret to deploy.
        </>
      }
      confirmLabel="Revoke key"
      onConfirm={() => revoke.mutateAsync()}
      trigger={
        <Button variant="ghost" size="sm" aria-label={label}>
          <BanIcon aria-hidden="true" />
          Revoke
        </Button>
      }
    />
  );
}
