"use client";

import * as React from "react";
import { LazyMenu, type TriggerProps } from "@/components/shell/lazy-menu";

/** What a lazily loaded dialog gets from its button: controlled open state, and the trigger to wrap in DialogTrigger. */
export type LazyDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; trigger: React.ReactElement };

/**
 * A button that opens a dialog whose code (radix dialog, the form library, zod) is loaded on
 * first use rather than with the screen: the same button is shown at once, hovering or
 * focusing it starts the download, and a click opens the dialog as soon as it has loaded.
 */
export function LazyDialog({
  load,
  trigger,
  children,
}: {
  load: () => Promise<unknown>;
  trigger: React.ReactElement<TriggerProps>;
  children: (dialog: LazyDialogProps) => React.ReactNode;
}) {
  return (
    <LazyMenu load={load} trigger={trigger} opensOn="click">
      {children}
    </LazyMenu>
  );
}
