"use client";

import * as React from "react";
import { CheckIcon, CopyIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { copyToClipboard } from "@/components/common/copy-to-clipboard";

/**
 * One click copies `value` and confirms with a toast. `label` names what is copied
 * ("message id", "DNS value") for the button's accessible name and the toast.
 */
export function CopyButton({
  value,
  label = "value",
  showText = false,
  size,
  variant = "ghost",
  className,
  ...props
}: { value: string; label?: string; showText?: boolean } & Omit<ButtonProps, "onClick" | "value">) {
  const [copied, setCopied] = React.useState(false);
  React.useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);

  async function onClick(event: React.MouseEvent) {
    // Copy buttons sit inside clickable rows; copying must not also open the row.
    event.stopPropagation();
    if (await copyToClipboard(value)) {
      setCopied(true);
      toast.success("Copied", { description: label === "value" ? undefined : `The ${label} is on your clipboard.` });
    } else {
      toast.error("Could not copy", { description: "Your browser refused access to the clipboard. Select the text and copy it by hand." });
    }
  }

  const Icon = copied ? CheckIcon : CopyIcon;
  const button = (
    <Button
      type="button"
      variant={variant}
      size={size ?? (showText ? "sm" : "icon-sm")}
      className={className}
      onClick={onClick}
      aria-label={showText ? undefined : `Copy ${label}`}
      data-copied={copied || undefined}
      {...props}
    >
      <Icon aria-hidden="true" />
      {showText && (copied ? "Copied" : "Copy")}
    </Button>
  );
  if (showText) return button;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      <TooltipContent>{copied ? "Copied" : `Copy ${label}`}</TooltipContent>
    </Tooltip>
  );
}

/** A monospace value with its copy button: ids, DNS hosts, addresses. */
export function CopyableText({ value, label, display, className }: { value: string; label?: string; display?: React.ReactNode; className?: string }) {
  return (
    <span className={"inline-flex max-w-full min-w-0 items-center gap-1 " + (className ?? "")}>
      <span className="truncate font-mono text-xs" title={value}>
        {display ?? value}
      </span>
      <CopyButton value={value} label={label} className="size-7" />
    </span>
  );
}
