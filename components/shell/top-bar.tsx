"use client";

import { SearchIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ProjectSwitcher } from "@/components/shell/project-switcher";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { UserMenu } from "@/components/shell/user-menu";
import { usePalette } from "@/components/shell/command-palette";

export function TopBar() {
  const palette = usePalette();
  return (
    <header className="flex h-14 shrink-0 items-center gap-3 border-b bg-background px-4">
      <ProjectSwitcher />
      <div className="flex-1" />
      <Button variant="outline" size="sm" className="w-56 justify-start gap-2 text-muted-foreground" onClick={palette.open} onPointerEnter={palette.preload} onFocus={palette.preload} aria-keyshortcuts="Control+K Meta+K">
        <SearchIcon aria-hidden="true" />
        <span className="flex-1 text-left">Search or jump to…</span>
        <kbd className="rounded border bg-muted px-1.5 font-mono text-[10px]">Ctrl K</kbd>
      </Button>
      <ThemeToggle />
      <UserMenu />
    </header>
  );
}
