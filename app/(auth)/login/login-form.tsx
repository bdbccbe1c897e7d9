"use client";

import { startTransition, useActionState, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { login, type LoginState } from "./actions";
import { LOGIN_MAX_LENGTH, loginFieldErrors, type LoginFields } from "./login-fields";
import { LoginField } from "./login-field";
import { SecondFactorForm } from "./second-factor-form";

type Field = keyof LoginFields;

/**
 * Email and password, checked as you go (login-fields.ts), sent through the `login` server
 * action. What was typed stays after a refusal; the button is disabled while the action
 * runs, so one click is one attempt (attempts are throttled on the server). Plain inputs
 * rather than the dashboard's form library: this page loads before anyone is signed in and
 * should load fast. A user with a second factor is asked for it next (./second-factor-form.tsx),
 * through the same action.
 */
export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(login, {});
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<LoginFields>({ email: "", password: "" });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = loginFieldErrors(values);
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    const firstInvalid = (["email", "password"] as const).find((field) => errors[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };

  if (state.step === "code") return <SecondFactorForm action={action} pending={pending} error={pending ? null : state.error} callbackUrl={callbackUrl} totp={state.totp ?? true} passkey={state.passkey ?? false} />;

  const fieldProps = (field: Field) => ({
    name: field,
    value: values[field],
    maxLength: LOGIN_MAX_LENGTH[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [field]: true })),
  });

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4">
      {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
      <LoginField label="Email" error={shown("email")}>
        {(aria) => <Input type="email" autoComplete="username" autoFocus inputMode="email" placeholder="you@example.com" {...aria} {...fieldProps("email")} />}
      </LoginField>
      <LoginField label="Password" error={shown("password")}>
        {(aria) => <Input type="password" autoComplete="current-password" {...aria} {...fieldProps("password")} />}
      </LoginField>
      <FormError message={pending ? null : state.error} />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
