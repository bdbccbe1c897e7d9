"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon, RefreshCwIcon } from "lucide-react";
import { twoFactorKeys, twoFactorMutations } from "@/lib/queries/two-factor";
import { useReauth } from "@/components/reauth/reauth";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { SecretReveal } from "@/components/common/secret-reveal";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { RECOVERY_CODE_COUNT } from "@/lib/schemas/words";

/**
 * How many recovery codes are left, and a new set: it replaces the old (after confirming
 * yourself when the sign-in is old, as for keys), and is shown once.
 */
export function RecoveryCodesCard({ left }: { left: number }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = React.useState(false);
  const { guarded, dialog } = useReauth();
  const regenerate = useMutation({
    mutationFn: () => guarded(twoFactorMutations.regenerateRecoveryCodes),
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRoundIcon className="size-4" aria-hidden="true" />
          Recovery codes
        </CardTitle>
        <CardDescription>Each signs you in once when you do not have your phone.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm" data-testid="recovery-codes-left">
          <span className={left <= 2 ? "font-medium text-destructive dark:text-red-300" : "font-medium"}>{left}</span> of {RECOVERY_CODE_COUNT} left
        </p>
        <Button variant="outline" onClick={() => setAsking(true)}>
          <RefreshCwIcon aria-hidden="true" />
          New codes…
        </Button>
      </CardContent>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Make new recovery codes?"
        description="Ten new codes replace all of your current ones, used or not: the old ones stop working at once."
        confirmLabel="Make new codes"
        onConfirm={() => regenerate.mutateAsync()}
      />
      {dialog}
      <SecretReveal
        secret={regenerate.data ? regenerate.data.codes.join(" ") : null}
        title="Save your new recovery codes"
        description="Your old codes no longer work. Keep these somewhere safe: they are shown only now."
        label="set of recovery codes"
        onClose={() => regenerate.reset()}
      />
    </Card>
  );
}
