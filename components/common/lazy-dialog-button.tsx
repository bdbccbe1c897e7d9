"use client";

import * as React from "react";
import type { LucideIcon } from "lucide-react";
import type { Permission } from "@/lib/permissions";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useShell } from "@/components/shell/shell-context";
import { LazyDialog, type LazyDialogProps } from "@/components/common/lazy-dialog";

/**
 * The button that opens a form dialog ("Create API key", "Add domain"), with the form's code
 * loaded on first use (<LazyDialog>). `load` is the form module's dynamic import, written at
 * the caller so the bundler splits it there; the module's default export gets the caller's
 * props and the dialog's. With `permission`, a user without it sees the button disabled,
 * with `deniedReason` on hover and focus.
 */
export function lazyDialogButton<P extends object>(
  load: () => Promise<{ default: React.ComponentType<P & LazyDialogProps> }>,
  { label, icon: Icon, permission, deniedReason }: { label: string; icon: LucideIcon; permission?: Permission; deniedReason?: string },
): React.FC<P> {
  const Form = React.lazy(load);
  const face = (
    <>
      <Icon aria-hidden="true" />
      {label}
    </>
  );

  function LazyDialogButton(props: P) {
    const { can } = useShell();
    if (permission && !can(permission)) {
      return (
        <Tooltip>
          <TooltipTrigger asChild>
            <span tabIndex={0}>
              <Button disabled>{face}</Button>
            </span>
          </TooltipTrigger>
          <TooltipContent>{deniedReason}</TooltipContent>
        </Tooltip>
      );
    }
    return (
      <LazyDialog load={load} trigger={<Button>{face}</Button>}>
        {(dialog) => <Form {...props} {...dialog} />}
      </LazyDialog>
    );
  }
  LazyDialogButton.displayName = `LazyDialogButton(${label})`;
  return LazyDialogButton;
}
