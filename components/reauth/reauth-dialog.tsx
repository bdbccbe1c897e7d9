"use client";

import * as React from "react";
import { useForm } from "react-hook-form";
import { useMutation } from "@tanstack/react-query";
import { FingerprintIcon, LockKeyholeIcon } from "lucide-react";
import { isAppError } from "@/lib/errors";
import { userMutations } from "@/lib/queries/users";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormError } from "@/components/ui/form-error";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useFormMutation } from "@/components/hooks/use-form-mutation";

/**
 * The password asked again before a write that needs it (./reauth.tsx) — or, for a user with
 * an authenticator app, a code from it or a recovery code instead, or a passkey.
 */
export function ReauthDialog({ open, onConfirmed, onCancel }: { open: boolean; onConfirmed: () => void; onCancel: () => void }) {
  const form = useForm<{ password: string }>({ defaultValues: { password: "" } });
  const id = React.useId();
  const [withCode, setWithCode] = React.useState(false);
  // No field owns a refusal: "password: is not correct" is read above the buttons.
  const { mutation, formError: error, reset } = useFormMutation(form, [], {
    mutationFn: (v: { password: string }) => userMutations.reconfirm(v.password, withCode ? "code" : "password"),
    gcTime: 0,
    onSuccess: () => {
      form.reset();
      reset();
      onConfirmed();
    },
  });
  const password = form.watch("password");
  // A passkey answers the step-up without typing: the browser's prompt, then the same confirmation.
  const passkey = useMutation({
    mutationFn: userMutations.reconfirmWithPasskey,
    gcTime: 0,
    onSuccess: () => {
      form.reset();
      reset();
      passkey.reset();
      onConfirmed();
    },
  });
  const busy = mutation.isPending || passkey.isPending;
  const shownError = passkey.error ? { message: passkey.error.message, correlationId: isAppError(passkey.error) ? passkey.error.correlationId : undefined } : error;

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o || busy) return;
        form.reset();
        reset();
        passkey.reset();
        onCancel();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <LockKeyholeIcon className="size-4" aria-hidden="true" />
            {withCode ? "Confirm with a code" : "Confirm it's you"}
          </DialogTitle>
          <DialogDescription>
            You signed in a while ago. This change needs {withCode ? "a code from your authenticator app, or a recovery code" : "your password again, or a passkey"} first.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={form.handleSubmit((v) => {
            if (v.password && !mutation.isPending) mutation.mutate(v);
          })}
        >
          <div className="grid gap-2">
            <Label htmlFor={id}>{withCode ? "Code" : "Password"}</Label>
            <Input
              id={id}
              key={withCode ? "code" : "password"}
              type={withCode ? "text" : "password"}
              autoComplete={withCode ? "one-time-code" : "current-password"}
              maxLength={withCode ? 40 : undefined}
              {...form.register("password")}
              autoFocus
              aria-invalid={!!error}
            />
            <button
              type="button"
              className="justify-self-start text-sm text-muted-foreground underline-offset-4 hover:underline"
              onClick={() => {
                setWithCode((c) => !c);
                form.reset();
                reset();
              }}
            >
              {withCode ? "Use your password instead" : "Use a code from your authenticator app instead"}
            </button>
          </div>
          <Button type="button" variant="outline" pending={passkey.isPending} disabled={busy} onClick={() => passkey.mutate()}>
            <FingerprintIcon aria-hidden="true" />
            Use a passkey
          </Button>
          <FormError message={shownError?.message} correlationId={shownError?.correlationId} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
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
