"use client";

import { startTransition, useState } from "react";
import { Link } from "@/components/common/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { passkeySignInOptions } from "./actions";
import { LoginField } from "./login-field";

/**
 * The sign-in's second step: a code from the authenticator app or a recovery code, or a
 * passkey (when the account has one), sent through the sign-in action (the ticket between the steps travels in an httpOnly cookie, not
 * here). Plain inputs, as the password step.
 */
export function SecondFactorForm({
  action,
  pending,
  error,
  callbackUrl,
  totp = true,
  passkey = false,
}: {
  action: (data: FormData) => void;
  pending: boolean;
  error?: string | null;
  callbackUrl?: string;
  totp?: boolean;
  passkey?: boolean;
}) {
  const [code, setCode] = useState("");
  const [touched, setTouched] = useState(false);
  const [prompting, setPrompting] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const missing = touched && !code.trim() ? "is required" : undefined;

  // The challenge from the server (for the ticket's user), the browser's prompt, then the same
  // action as a code, with the answer as one JSON field. @simplewebauthn/browser loads on use.
  const askPasskey = async () => {
    setPasskeyError(null);
    setPrompting(true);
    try {
      const options = await passkeySignInOptions();
      if (!options) {
        setPasskeyError("Your sign-in took too long. Start over and enter your password again.");
        return;
      }
      const { assertPasskeyInBrowser } = await import("@/lib/passkeys/browser");
      const assertion = await assertPasskeyInBrowser(options);
      const data = new FormData();
      data.set("assertion", JSON.stringify(assertion));
      if (callbackUrl) data.set("callbackUrl", callbackUrl);
      startTransition(() => action(data));
    } catch (e) {
      setPasskeyError(e instanceof Error ? e.message : "The passkey could not be used.");
    } finally {
      setPrompting(false);
    }
  };
  const passkeyButton = passkey && (
    <Button type="button" variant={totp ? "outline" : "default"} className="w-full" pending={prompting} disabled={pending || prompting} onClick={askPasskey}>
      Use a passkey
    </Button>
  );

  if (!totp) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">Confirm it is you with one of your passkeys.</p>
        <FormError message={passkeyError ?? error} />
        {passkeyButton}
        <Link href="/login" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
          Start over
        </Link>
      </div>
    );
  }
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
      <FormError message={passkeyError ?? error} />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Checking…" : "Verify"}
      </Button>
      {passkeyButton}
      <Link href="/login" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
        Start over
      </Link>
    </form>
  );
}
