"use client";

import { useTransition } from "react";
import { LogOutIcon } from "lucide-react";
import { logout } from "@/lib/server/gate/sign-out";
import { Button } from "@/components/ui/button";

export function SignOutButton({ variant = "outline" }: { variant?: "outline" | "ghost" | "default" }) {
  const [pending, startTransition] = useTransition();
  return (
    <Button variant={variant} pending={pending} onClick={() => startTransition(async () => { await logout(); })}>
      {!pending && <LogOutIcon aria-hidden="true" />}
      Sign out
    </Button>
  );
}
