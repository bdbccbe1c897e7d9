"use client";

import * as React from "react";
import { useTransition } from "react";
import { Link } from "@/components/common/link";
import { LogOutIcon, MonitorSmartphoneIcon, ShieldCheckIcon, UserRoundIcon } from "lucide-react";
import { logout, logoutEverywhere } from "@/lib/server/gate/sign-out";
import { ROLE_LABELS } from "@/lib/permissions";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { useShell } from "@/components/shell/shell-context";

/** The user menu itself and its confirmation, loaded on first use (user-menu.tsx). */
export function UserMenuContent({ open, onOpenChange, trigger }: { open: boolean; onOpenChange: (open: boolean) => void; trigger: React.ReactElement }) {
  const { user } = useShell();
  const [pending, startTransition] = useTransition();
  const [everywhere, setEverywhere] = React.useState(false);
  return (
    <>
      <DropdownMenu open={open} onOpenChange={onOpenChange}>
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
          <DropdownMenuItem asChild>
            <Link href="/account">
              <ShieldCheckIcon aria-hidden="true" />
              Account and sign-in
            </Link>
          </DropdownMenuItem>
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
