"use client";

import { startTransition, useState } from "react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { LoginField } from "./login-field";

/**
 * The sign-in's second step: a code from the authenticator app or a recovery code, sent
 * through the sign-in action (the ticket between the steps travels in an httpOnly cookie, not
 * here). Plain inputs, as the password step.
 */
export function SecondFactorForm({ action, pending, error, callbackUrl }: { action: (data: FormData) => void; pending: boolean; error?: string | null; callbackUrl?: string }) {
  const [code, setCode] = useState("");
  const [touched, setTouched] = useState(false);
  const missing = touched && !code.trim() ? "is required" : undefined;
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (!code.trim()) return;
        const data = new FormData(event.currentTarget);
        startTransition(() => action(data));
      }}
    >
      {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
      <p className="text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <LoginField label="Authentication code" error={missing}>
        {(aria) => (
          <Input
            name="code"
            value={code}
            maxLength={40}
            autoComplete="one-time-code"
            autoFocus
            spellCheck={false}
            autoCapitalize="none"
            onChange={(e) => setCode(e.target.value)}
            onBlur={() => setTouched(true)}
            {...aria}
          />
        )}
      </LoginField>
      <FormError message={error} />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Checking…" : "Verify"}
      </Button>
      <Link href="/login" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
        Start over
      </Link>
    </form>
  );
}
