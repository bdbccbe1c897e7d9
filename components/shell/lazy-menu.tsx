"use client";

import * as React from "react";

export type TriggerProps = {
  onPointerEnter?: React.PointerEventHandler;
  onFocus?: React.FocusEventHandler;
  onPointerDown?: React.PointerEventHandler;
  onClick?: React.MouseEventHandler;
  onKeyDown?: React.KeyboardEventHandler;
  "aria-expanded"?: boolean;
};

/**
 * A menu or popover of the top bar whose code (radix, cmdk) loads when the user first reaches
 * for it rather than with every screen. Until then its trigger is the same button, opening
 * the way the real one does (`pointerdown` for a menu, `click` for a popover; Enter, Space or
 * ArrowDown from the keyboard); hovering or focusing it starts the download. Once loaded,
 * `children` renders the real thing, controlled, with that trigger inside it.
 */
export function LazyMenu({
  load,
  trigger,
  opensOn,
  children,
}: {
  load: () => Promise<unknown>;
  trigger: React.ReactElement<TriggerProps>;
  opensOn: "pointerdown" | "click";
  children: (menu: { open: boolean; onOpenChange: (open: boolean) => void; trigger: React.ReactElement }) => React.ReactNode;
}) {
  const [wanted, setWanted] = React.useState(false);
  const [open, setOpen] = React.useState(false);
  const start = () => {
    setWanted(true);
    setOpen(true);
  };
  const preload = () => void load().catch(() => {});
  const waiting = React.cloneElement(trigger, {
    "aria-expanded": false,
    onPointerEnter: preload,
    onFocus: preload,
    onPointerDown: (event: React.PointerEvent) => {
      if (opensOn !== "pointerdown" || event.button !== 0 || event.ctrlKey) return;
      event.preventDefault();
      start();
    },
    onClick: () => {
      if (opensOn === "click") start();
    },
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key !== "Enter" && event.key !== " " && event.key !== "ArrowDown") return;
      event.preventDefault();
      start();
    },
  });
  if (!wanted) return waiting;
  return <React.Suspense fallback={waiting}>{children({ open, onOpenChange: setOpen, trigger })}</React.Suspense>;
}
