"use client";

import * as React from "react";
import { AlertTriangleIcon, CheckIcon, CopyIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { copyToClipboard } from "@/components/common/copy-to-clipboard";
import { cn } from "@/lib/utils";

/**
 * A secret shown once (generated password, API key, signing secret). It lives only in this
 * dialog's props; the caller drops it when the dialog closes. Closing before copying asks
 * once more, because there is no second chance to see it.
 */
export function OneTimeSecretDialog({
  secret,
  title,
  description,
  label,
  onClose,
  children,
}: {
  /** null closes the dialog. */
  secret: string | null;
  title: string;
  description: React.ReactNode;
  /** What the secret is, for the copy button and the toast ("password", "API key"). */
  label: string;
  onClose: () => void;
  /** Extra actions next to Done (e.g. "Set project access"), told whether the secret was copied. */
  children?: (state: { copied: boolean }) => React.ReactNode;
}) {
  const [copied, setCopied] = React.useState(false);
  const [warned, setWarned] = React.useState(false);
  const open = secret !== null;

  React.useEffect(() => {
    if (!open) {
      setCopied(false);
      setWarned(false);
    }
  }, [open]);

  async function copy() {
    if (!secret) return;
    if (await copyToClipboard(secret)) {
      setCopied(true);
      setWarned(false);
      toast.success("Copied", { description: `The ${label} is on your clipboard.` });
    } else {
      toast.error("Could not copy", { description: "Select the text and copy it by hand." });
    }
  }

  function requestClose() {
    if (!copied && !warned) {
      setWarned(true);
      return;
    }
    onClose();
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && requestClose()}>
      <DialogContent onPointerDownOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2">
          <input
            readOnly
            value={secret ?? ""}
            aria-label={label}
            onFocus={(e) => e.currentTarget.select()}
            className="h-10 min-w-0 flex-1 rounded-md border bg-muted px-3 font-mono text-sm"
            data-secret=""
          />
          <Button type="button" variant={copied ? "outline" : "default"} onClick={copy}>
            {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
        <p
          role={warned ? "alert" : undefined}
          className={cn(
            "flex items-start gap-2 rounded-md px-3 py-2 text-sm",
            warned ? "border border-destructive/40 bg-destructive/10 text-destructive dark:text-red-300" : "bg-warning text-warning-foreground",
          )}
        >
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {warned
            ? `You have not copied the ${label}. It cannot be shown again once this closes. Close anyway?`
            : `This is the only time the ${label} is shown. Copy it now and pass it on securely.`}
        </p>
        <DialogFooter>
          {children?.({ copied })}
          <Button type="button" variant={warned ? "destructive" : copied ? "default" : "outline"} onClick={requestClose}>
            {warned ? "Close without copying" : "Done"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
