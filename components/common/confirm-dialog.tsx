"use client";

import * as React from "react";
import { LazyMenu, type TriggerProps } from "@/components/shell/lazy-menu";
import type { ConfirmDialogProps } from "@/components/common/confirm-dialog-content";

const load = () => import("@/components/common/confirm-dialog-content");
const Content = React.lazy(() => load().then((m) => ({ default: m.ConfirmDialogContent })));

/**
 * Confirms a destructive or irreversible action. The title names the thing ("Remove project
 * Acme?"), the description states the consequence. The dialog stays open while the action
 * runs and shows its error in place, so a failed delete is never mistaken for a done one.
 * With `typeToConfirm`, the user must type that text first (for the really expensive ones).
 *
 * The dialog's code (radix alert dialog, focus trap, scroll lock) loads when it is first
 * opened, not with the screen: with a `trigger`, hovering or focusing it starts the download.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { trigger, open, onOpenChange } = props;
  const [wanted, setWanted] = React.useState(false);
  if (trigger) {
    return (
      <LazyMenu load={load} trigger={trigger as React.ReactElement<TriggerProps>} opensOn="click">
        {(dialog) => (
          <Content
            {...props}
            trigger={dialog.trigger}
            open={open ?? dialog.open}
            onOpenChange={(next) => {
              dialog.onOpenChange(next);
              onOpenChange?.(next);
            }}
          />
        )}
      </LazyMenu>
    );
  }
  if (open && !wanted) setWanted(true);
  if (!wanted && !open) return null;
  return (
    <React.Suspense fallback={null}>
      <Content {...props} />
    </React.Suspense>
  );
}
