"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FolderKeyIcon, KeyRoundIcon, LogOutIcon, ShieldIcon, SmartphoneIcon, UserCheckIcon, UserXIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/permissions";
import type { UpdateUserRequest, UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { SecretReveal } from "@/components/common/secret-reveal";
import { describeError } from "@/components/common/error-advice";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { UserProjectsDialog, type ProjectOption } from "./user-projects-dialog";

type Dialog = "projects" | "reset" | "disable" | "sessions" | "two-factor" | null;

/**
 * Per-user actions, loaded with their menu and dialogs on first use (./user-actions.tsx). Role changes and enabling act at once with a toast; disabling, resetting
 * a password and ending sessions confirm first. Your own role, project access and account
 * cannot be changed here (nobody widens their own reach or locks themselves out); your own
 * sessions end with "Sign out everywhere" in the user menu.
 */
export function UserActionsMenu({
  user,
  projects,
  isSelf,
  open,
  onOpenChange,
  trigger,
}: { user: UserView; projects: ProjectOption[]; isSelf: boolean } & LazyDialogProps) {
  const [dialog, setDialog] = React.useState<Dialog>(null);
  const queryClient = useQueryClient();
  const who = user.name ?? user.email;

  const endSessions = useMutation({
    mutationFn: () => userMutations.endSessions(user.id),
    onSuccess: async ({ ended }) => {
      toast.success("Sessions ended", { description: `${who} was signed out of ${ended} ${ended === 1 ? "session" : "sessions"}.` });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  // The new password lives only in this mutation (gcTime 0, never in the query cache) and is forgotten when its reveal closes (rule 7).
  const resetPassword = useMutation({
    mutationFn: () => userMutations.resetPassword(user.id),
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
  const resetTwoFactor = useMutation({
    mutationFn: () => userMutations.resetTwoFactor(user.id),
    onSuccess: async ({ ended }) => {
      toast.success("Two-factor sign-in reset", { description: `${who} signs in with the password alone next time (${ended} ${ended === 1 ? "session" : "sessions"} ended), then can set up a new app.` });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const update = useMutation({
    mutationFn: (body: UpdateUserRequest) => userMutations.update(user.id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });

  function changeRole(role: Role) {
    if (role === user.role) return;
    update.mutate(
      { role },
      {
        onSuccess: () => toast.success("Role changed", { description: `${who} is now ${ROLE_LABELS[role]} and was signed out, to sign in again with the new role.` }),
        onError: (e) => toast.error("The role was not changed", { description: describeError(e).message }),
      },
    );
  }

  function enable() {
    update.mutate(
      { active: true },
      {
        onSuccess: () => toast.success("User enabled", { description: `${who} can sign in again.` }),
        onError: (e) => toast.error("The user was not enabled", { description: describeError(e).message }),
      },
    );
  }

  const selfReason = "You cannot change your own account here";
  const sessionsReason = isSelf ? "Use “Sign out everywhere” in your user menu" : user.activeSessions === 0 ? "No session to end" : undefined;

  return (
    <>
      <DropdownMenu open={open} onOpenChange={onOpenChange}>
        <DropdownMenuTrigger asChild>{React.cloneElement(trigger as React.ReactElement<{ disabled?: boolean }>, { disabled: update.isPending })}</DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-56">
          <DropdownMenuLabel className="truncate text-xs font-normal text-muted-foreground">{user.email}</DropdownMenuLabel>
          <DropdownMenuSub>
            <DropdownMenuSubTrigger disabled={isSelf} title={isSelf ? selfReason : undefined}>
              <ShieldIcon aria-hidden="true" />
              Change role
            </DropdownMenuSubTrigger>
            <DropdownMenuSubContent>
              <DropdownMenuRadioGroup value={user.role} onValueChange={(v) => changeRole(v as Role)}>
                {ROLES.map((r) => (
                  <DropdownMenuRadioItem key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </DropdownMenuRadioItem>
                ))}
              </DropdownMenuRadioGroup>
            </DropdownMenuSubContent>
          </DropdownMenuSub>
          <DropdownMenuItem disabled={isSelf} title={isSelf ? "You cannot change your own project access" : undefined} onSelect={() => setDialog("projects")}>
            <FolderKeyIcon aria-hidden="true" />
            {isSelf ? "Project access (not your own)" : "Project access…"}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setDialog("reset")}>
            <KeyRoundIcon aria-hidden="true" />
            Reset password…
          </DropdownMenuItem>
          <DropdownMenuItem disabled={isSelf} title={isSelf ? "Use your Account screen" : undefined} onSelect={() => setDialog("two-factor")}>
            <SmartphoneIcon aria-hidden="true" />
            {isSelf ? "Reset two-factor (not your own)" : "Reset two-factor…"}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={sessionsReason !== undefined} title={sessionsReason} onSelect={() => setDialog("sessions")}>
            <LogOutIcon aria-hidden="true" />
            {isSelf ? "End sessions (use Sign out everywhere)" : user.activeSessions === 0 ? "End sessions (none active)" : "End sessions…"}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          {user.active ? (
            <DropdownMenuItem variant="destructive" disabled={isSelf} onSelect={() => setDialog("disable")}>
              <UserXIcon aria-hidden="true" />
              {isSelf ? "Disable (not your own)" : "Disable…"}
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem onSelect={enable}>
              <UserCheckIcon aria-hidden="true" />
              Enable
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>

      <UserProjectsDialog user={user} projects={projects} open={dialog === "projects"} onOpenChange={(o) => setDialog(o ? "projects" : null)} />

      <ConfirmDialog
        open={dialog === "disable"}
        onOpenChange={(o) => setDialog(o ? "disable" : null)}
        title={`Disable ${who}?`}
        description={`${user.email} is signed out everywhere at once and cannot sign in until an admin enables the account again. Nothing they did is removed.`}
        confirmLabel="Disable user"
        onConfirm={async () => {
          await update.mutateAsync({ active: false });
          toast.success("User disabled", { description: `${who} can no longer sign in.` });
        }}
      />

      <ConfirmDialog
        open={dialog === "sessions"}
        onOpenChange={(o) => setDialog(o ? "sessions" : null)}
        title={`End every session of ${who}?`}
        description={`${user.email} is signed out of every browser at once (${user.activeSessions} active ${user.activeSessions === 1 ? "session" : "sessions"}) and can sign in again with the same password. Reset the password too if it may be known to someone else.`}
        confirmLabel="End sessions"
        onConfirm={() => endSessions.mutateAsync()}
      />

      <ConfirmDialog
        open={dialog === "two-factor"}
        onOpenChange={(o) => setDialog(o ? "two-factor" : null)}
        title={`Reset the two-factor sign-in of ${who}?`}
        description={`For a lost phone: ${user.email}'s authenticator app, recovery codes and passkeys stop working at once and they are signed out everywhere. They sign in next with the password alone, and can then set up a new app or passkey. Check it is really them who asks.`}
        confirmLabel="Reset two-factor"
        onConfirm={() => resetTwoFactor.mutateAsync()}
      />

      <ConfirmDialog
        open={dialog === "reset"}
        onOpenChange={(o) => setDialog(o ? "reset" : null)}
        title={`Reset the password of ${who}?`}
        description={`The current password stops working at once and ${user.email} is signed out everywhere. You will see the new password once, to pass on.`}
        confirmLabel="Reset password"
        onConfirm={() => resetPassword.mutateAsync()}
      />

      <SecretReveal
        secret={resetPassword.data?.password ?? null}
        label="password"
        title={`New password for ${user.email}`}
        description="Give this password to the user. The old one no longer works."
        onClose={() => resetPassword.reset()}
      />
    </>
  );
}
