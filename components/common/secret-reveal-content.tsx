"use client";

import * as React from "react";
import { AlertTriangleIcon, EyeIcon, EyeOffIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { CopyButton } from "@/components/common/copy-button";

/**
 * A secret shown once (API key, webhook signing secret, generated password): masked until
 * revealed, with a copy button. Every way of closing — Escape, a click outside, the button — first asks whether
 * the secret has been stored, since it can never be shown again. The secret lives only in
 * the `secret` prop: the caller keeps it in a mutation it resets in `onClose`, so nothing of
 * it survives in a cache, in storage or in the page once this closes.
 */
export function SecretRevealContent({
  secret,
  title,
  description,
  label,
  onClose,
}: {
  secret: string | null;
  title: string;
  description: React.ReactNode;
  /** What the secret is: "API key", "signing secret", "password". */
  label: string;
  onClose: () => void;
}) {
  const [revealed, setRevealed] = React.useState(false);
  const [asking, setAsking] = React.useState(false);
  const open = secret !== null;
  const inputId = React.useId();

  React.useEffect(() => {
    if (!open) {
      setRevealed(false);
      setAsking(false);
    }
  }, [open]);

  return (
    <Dialog open={open} onOpenChange={(o) => !o && setAsking(true)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <label htmlFor={inputId} className="text-sm font-medium">
            {label[0].toUpperCase() + label.slice(1)}
          </label>
          <div className="flex items-center gap-2">
            <input
              id={inputId}
              readOnly
              type={revealed ? "text" : "password"}
              value={secret ?? ""}
              autoComplete="off"
              spellCheck={false}
              onFocus={(e) => e.currentTarget.select()}
              className="h-10 min-w-0 flex-1 rounded-md border bg-muted px-3 font-mono text-sm"
              data-secret=""
            />
            <Button type="button" variant="outline" onClick={() => setRevealed((r) => !r)} aria-pressed={revealed}>
              {revealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
              {revealed ? "Hide" : "Reveal"}
            </Button>
            {secret && <CopyButton value={secret} label={label} showText variant="default" size="default" />}
          </div>
        </div>
        {asking ? (
          <div role="alert" className="grid gap-3 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-3 text-sm text-destructive dark:text-red-300">
            <p className="flex items-start gap-2 font-medium">
              <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              Have you stored the {label} somewhere safe? Once this closes it cannot be shown again — not here, not anywhere.
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setAsking(false)}>
                Go back
              </Button>
              <Button type="button" variant="destructive" onClick={onClose}>
                I have stored it, close
              </Button>
            </div>
          </div>
        ) : (
          <p className="flex items-start gap-2 rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground">
            <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            This is the only time the {label} is shown. Copy it now and keep it in your secret store.
          </p>
        )}
        {!asking && (
          <DialogFooter>
            <Button type="button" onClick={() => setAsking(true)}>
              Done
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
