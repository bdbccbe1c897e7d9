"use client";

import { startTransition, useActionState, useRef } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { loginRequest } from "@/lib/schemas/users";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Form, FormControl, FormError, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { login, type LoginState } from "./actions";

type LoginValues = z.input<typeof loginRequest>;

/**
 * Email and password, checked as you go, sent through the `login` server action. What was
 * typed stays after a refusal; the button is disabled while the action runs, so one click
 * is one attempt (attempts are throttled on the server).
 */
export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(login, {});
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<LoginValues>({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: "", password: "", callbackUrl },
    mode: "onTouched",
  });

  const onValid = () => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    startTransition(() => action(data));
  };

  return (
    <Form {...form}>
      <form ref={formRef} noValidate onSubmit={form.handleSubmit(onValid)} className="grid gap-4">
        {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
        <FormField
          control={form.control}
          name="email"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Email</FormLabel>
              <FormControl>
                <Input type="email" autoComplete="username" autoFocus inputMode="email" placeholder="you@example.com" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Password</FormLabel>
              <FormControl>
                <Input type="password" autoComplete="current-password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormError message={pending ? null : state.error} />
        <Button type="submit" pending={pending} className="w-full">
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </Form>
  );
}
