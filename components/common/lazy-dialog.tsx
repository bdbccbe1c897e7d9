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

/** True from the first render where `open` is, on: a dialog loaded then stays mounted to animate its closing and keep its state. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = React.useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * A controlled dialog (opened by its props, not by a button of its own) whose code loads the
 * first time it is opened; until then it draws nothing, as the closed dialog does.
 */
export function whenOpened<P extends object>(load: () => Promise<React.ComponentType<P>>, isOpen: (props: P) => boolean): React.FC<P> {
  const Lazy = React.lazy(() => load().then((component) => ({ default: component }))) as unknown as React.FC<P>;
  function WhenOpened(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    if (!opened) return null;
    return (
      <React.Suspense fallback={null}>
        <Lazy {...props} />
      </React.Suspense>
    );
  }
  return WhenOpened;
}
