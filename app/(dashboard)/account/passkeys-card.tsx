"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FingerprintIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import type { PasskeyView } from "@/lib/schemas/passkeys";
import { passkeyMutations, twoFactorKeys } from "@/lib/queries/two-factor";
import { useReauth } from "@/components/reauth/reauth";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { RelativeTime } from "@/components/common/relative-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const PER_USER = 10;
const loadAdd = () => import("./passkey-add-dialog-form");
const loadRename = () => import("./passkey-rename-dialog-form");
const AddForm = React.lazy(loadAdd);
const RenameForm = React.lazy(loadRename);

/**
 * The user's passkeys: each named, with when it was added and last used; add one (the
 * browser's prompt; @simplewebauthn/browser loads then), rename one, remove one — removing
 * asks for the step-up when the sign-in is old, as other changes to the factors do.
 */
export function PasskeysCard({ passkeys }: { passkeys: PasskeyView[] }) {
  const queryClient = useQueryClient();
  const [removing, setRemoving] = React.useState<PasskeyView | null>(null);
  const { guarded, dialog } = useReauth();
  const remove = useMutation({
    mutationFn: (id: string) => guarded(() => passkeyMutations.remove(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() }),
  });
  const full = passkeys.length >= PER_USER;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <FingerprintIcon className="size-4" aria-hidden="true" />
          Passkeys
          <Badge variant={passkeys.length ? "default" : "outline"}>{passkeys.length ? `${passkeys.length} added` : "None"}</Badge>
        </CardTitle>
        <CardDescription>
          A passkey confirms your sign-in with your device&apos;s screen lock, a phone or a security key instead of a code — and confirms you before creating keys and webhooks.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {passkeys.length > 0 && (
          <ul className="divide-y rounded-md border" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-2 p-3" data-testid="passkey-row">
                <div className="min-w-0">
                  <p className="font-medium break-all">{passkey.name}</p>
                  <p className="text-xs text-muted-foreground">
                    Added <RelativeTime value={passkey.createdAt} /> · {passkey.lastUsedAt ? <>last used <RelativeTime value={passkey.lastUsedAt} /></> : "not used yet"}
                  </p>
                </div>
                <div className="flex gap-2">
                  <LazyDialog
                    load={loadRename}
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Rename ${passkey.name}`}>
                        <PencilIcon aria-hidden="true" />
                        Rename
                      </Button>
                    }
                  >
                    {(d) => <RenameForm passkey={passkey} {...d} />}
                  </LazyDialog>
                  <Button variant="outline" size="sm" aria-label={`Remove ${passkey.name}`} onClick={() => setRemoving(passkey)}>
                    <Trash2Icon aria-hidden="true" />
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-3">
          {full ? (
            <p className="text-sm text-muted-foreground">You have {PER_USER} passkeys, the most allowed: remove one to add another.</p>
          ) : (
            <LazyDialog
              load={loadAdd}
              trigger={
                <Button variant={passkeys.length ? "outline" : "default"}>
                  <PlusIcon aria-hidden="true" />
                  Add a passkey
                </Button>
              }
            >
              {(d) => <AddForm {...d} />}
            </LazyDialog>
          )}
        </div>
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove passkey “${removing?.name ?? ""}”?`}
        description="It will no longer confirm your sign-in. The passkey itself stays on the device until you delete it there."
        confirmLabel="Remove passkey"
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing.id);
        }}
      />
      {dialog}
    </Card>
  );
}
