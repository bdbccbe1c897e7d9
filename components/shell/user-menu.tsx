"use client";

import * as React from "react";
import { useTransition } from "react";
import { LogOutIcon, MonitorSmartphoneIcon, UserRoundIcon } from "lucide-react";
import { logout, logoutEverywhere } from "@/app/(auth)/login/actions";
import { ROLE_LABELS } from "@/lib/permissions";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { useShell } from "@/components/shell/shell-context";

function initials(name: string | null, email: string): string {
  const source = name?.trim() || email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (name && parts[1] ? parts[1][0] : "")).toUpperCase();
}

/**
 * Who is signed in, and the two ways out: this browser, or every browser (a forgotten
 * session on a shared computer, a lost laptop). Both end the sessions on the server.
 */
export function UserMenu() {
  const { user } = useShell();
  const [pending, startTransition] = useTransition();
  const [everywhere, setEverywhere] = React.useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="sm" className="gap-2 px-1.5" aria-label={`Account: ${user.name ?? user.email}`}>
            <span className="flex size-7 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary" aria-hidden="true">
              {initials(user.name, user.email)}
            </span>
            <span className="hidden max-w-32 truncate text-sm xl:inline">{user.name ?? user.email}</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64">
          <DropdownMenuLabel className="font-normal">
            <div className="flex items-start gap-2">
              <UserRoundIcon className="mt-0.5 size-4 text-muted-foreground" aria-hidden="true" />
              <div className="min-w-0">
                <p className="truncate text-sm font-medium">{user.name ?? user.email}</p>
                {user.name && <p className="truncate text-xs text-muted-foreground">{user.email}</p>}
                <p className="mt-1 text-xs text-muted-foreground">
                  Role: {ROLE_LABELS[user.role]}
                  {!user.allProjects && " · some projects"}
                </p>
              </div>
            </div>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            disabled={pending}
            onSelect={(event) => {
              event.preventDefault();
              startTransition(async () => {
                await logout();
              });
            }}
          >
            <LogOutIcon aria-hidden="true" />
            {pending ? "Signing out…" : "Sign out"}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={pending} onSelect={() => setEverywhere(true)}>
            <MonitorSmartphoneIcon aria-hidden="true" />
            Sign out everywhere…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={everywhere}
        onOpenChange={setEverywhere}
        title="Sign out everywhere?"
        description="Every browser where you are signed in to the dashboard, this one included, is signed out at once. Use it if you left a session open on another computer."
        confirmLabel="Sign out everywhere"
        onConfirm={() => logoutEverywhere()}
      />
    </>
  );
}
