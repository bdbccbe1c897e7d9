"use client";

import * as React from "react";
import { useMutation } from "@tanstack/react-query";
import { LockKeyholeIcon } from "lucide-react";
import { api } from "@/lib/api-client";
import { AppError, isAppError } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormError } from "@/components/ui/form-error";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { describeError } from "@/components/common/error-advice";

type Waiter = { resolve: () => void; reject: (e: unknown) => void };

/**
 * Runs a write that may answer 403 `reauth_required` (creating a key or a webhook): the
 * password is asked in a dialog, confirmed with POST /api/auth/reconfirm, and the write
 * runs again with the same input. Cancelling rejects with an error saying nothing was made.
 */
export function useReauth() {
  const [waiter, setWaiter] = React.useState<Waiter | null>(null);

  const guarded = React.useCallback(async <T,>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (e) {
      if (!isAppError(e) || e.code !== "reauth_required") throw e;
      await new Promise<void>((resolve, reject) => setWaiter({ resolve, reject }));
      return write();
    }
  }, []);

  const dialog = (
    <ReauthDialog
      open={waiter !== null}
      onConfirmed={() => {
        waiter?.resolve();
        setWaiter(null);
      }}
      onCancel={() => {
        waiter?.reject(new AppError(403, "reauth_cancelled", "Your password was not confirmed, so nothing was created."));
        setWaiter(null);
      }}
    />
  );
  return { guarded, dialog };
}

function ReauthDialog({ open, onConfirmed, onCancel }: { open: boolean; onConfirmed: () => void; onCancel: () => void }) {
  const [password, setPassword] = React.useState("");
  const id = React.useId();
  const mutation = useMutation({
    mutationFn: (pw: string) => api.post("/api/auth/reconfirm", { password: pw }),
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
