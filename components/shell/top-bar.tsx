"use client";

import { SearchIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ProjectSwitcher } from "@/components/shell/project-switcher";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { UserMenu } from "@/components/shell/user-menu";
import { MobileNav } from "@/components/shell/mobile-nav";
import { usePalette } from "@/components/shell/command-palette";

export function TopBar() {
  const palette = usePalette();
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-background px-4 md:gap-3">
      <MobileNav />
      <ProjectSwitcher />
      <div className="flex-1" />
      {/* On a phone the search is an icon (its words stay its name) and the shortcut hint goes: no keyboard. */}
      <Button variant="outline" size="sm" className="justify-start gap-2 text-muted-foreground max-md:size-9 max-md:justify-center max-md:px-0 md:w-56" onClick={palette.open} onPointerEnter={palette.preload} onFocus={palette.preload} aria-keyshortcuts="Control+K Meta+K">
        <SearchIcon aria-hidden="true" />
        <span className="flex-1 text-left max-md:sr-only">Search or jump to…</span>
        <kbd className="rounded border bg-muted px-1.5 font-mono text-[10px] max-md:hidden">Ctrl K</kbd>
      </Button>
      <ThemeToggle />
      <UserMenu />
    </header>
  );
}
