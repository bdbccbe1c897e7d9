"use client";

import * as React from "react";
import { useMutation } from "@tanstack/react-query";
import { LockKeyholeIcon } from "lucide-react";
import { userMutations } from "@/lib/queries/users";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormError } from "@/components/ui/form-error";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { describeError } from "@/components/common/error-advice";

/** The password asked again before a write that needs it (./reauth.tsx). */
export function ReauthDialog({ open, onConfirmed, onCancel }: { open: boolean; onConfirmed: () => void; onCancel: () => void }) {
  const [password, setPassword] = React.useState("");
  const id = React.useId();
  const mutation = useMutation({
    mutationFn: (pw: string) => userMutations.reconfirm(pw),
    gcTime: 0,
    onSuccess: () => {
      setPassword("");
      mutation.reset();
      onConfirmed();
    },
  });
  const error = mutation.error ? describeError(mutation.error) : null;

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o || mutation.isPending) return;
        setPassword("");
        mutation.reset();
        onCancel();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <LockKeyholeIcon className="size-4" aria-hidden="true" />
            Confirm your password
          </DialogTitle>
          <DialogDescription>You signed in a while ago. Creating a secret that grants access to your mail needs your password again.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (password && !mutation.isPending) mutation.mutate(password);
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={id}>Password</Label>
            <Input id={id} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus aria-invalid={!!error} />
          </div>
          <FormError message={error?.message} correlationId={error?.correlationId} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" pending={mutation.isPending} disabled={!password}>
              Confirm
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
