"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { useShell } from "@/components/shell/shell-context";

const loadMenu = () => import("@/components/shell/user-menu-content");
const UserMenuContent = React.lazy(() => loadMenu().then((m) => ({ default: m.UserMenuContent })));

function initials(name: string | null, email: string): string {
  const source = name?.trim() || email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (name && parts[1] ? parts[1][0] : "")).toUpperCase();
}

/**
 * Who is signed in, and the two ways out: this browser, or every browser (a forgotten
 * session on a shared computer, a lost laptop). Both end the sessions on the server. The
 * menu's code loads when it is first opened.
 */
export function UserMenu() {
  const { user } = useShell();
  const trigger = (
    <Button variant="ghost" size="sm" className="gap-2 px-1.5" aria-label={`Account: ${user.name ?? user.email}`} aria-haspopup="menu">
      <span className="flex size-7 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary" aria-hidden="true">
        {initials(user.name, user.email)}
      </span>
      <span className="hidden max-w-32 truncate text-sm xl:inline">{user.name ?? user.email}</span>
    </Button>
  );
  return (
    <LazyMenu load={loadMenu} trigger={trigger} opensOn="pointerdown">
      {(menu) => <UserMenuContent {...menu} />}
    </LazyMenu>
  );
}
