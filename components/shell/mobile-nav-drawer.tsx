"use client";

import * as React from "react";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Brand, MainNav } from "@/components/shell/app-sidebar";

/** Tailwind's `md` (48rem), where the sidebar shows and the menu button hides (mobile-nav.tsx). */
const SIDEBAR_SHOWN = "(min-width: 48rem)";

/**
 * The phone's navigation: the sidebar's links in a sheet from the left. Radix's dialog moves
 * focus in, closes on Esc and on a tap outside, and gives focus back to the menu button;
 * choosing a link closes it too (the current screen's link as well, which navigates nowhere).
 * Widening the window past `md` closes it as well: the sidebar then shows, and an open drawer
 * would keep covering it, with the rest of the page hidden from assistive technology.
 */
export function MobileNavDrawer({ id, open, onOpenChange, trigger }: { id: string; open: boolean; onOpenChange: (open: boolean) => void; trigger: React.ReactElement }) {
  const close = React.useCallback(() => onOpenChange(false), [onOpenChange]);
  React.useEffect(() => {
    if (!open) return;
    const wide = window.matchMedia(SIDEBAR_SHOWN);
    const onChange = () => {
      if (wide.matches) close();
    };
    onChange();
    // The media query's change event alone once let the drawer stay open over the sidebar (a
    // full run, the window widened from 767 to 1024 px); a resize is the same news by another path.
    wide.addEventListener("change", onChange);
    window.addEventListener("resize", onChange);
    return () => {
      wide.removeEventListener("change", onChange);
      window.removeEventListener("resize", onChange);
    };
  }, [open, close]);
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent side="left" id={id} aria-describedby={undefined} className="w-72 max-w-[85vw] gap-3 bg-sidebar p-0">
        <div className="flex h-14 shrink-0 items-center border-b border-sidebar-border px-4 pr-12">
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <Brand onNavigate={close} />
        </div>
        <MainNav roomy onNavigate={close} className="px-2 pb-6" />
      </SheetContent>
    </Sheet>
  );
}
