"use client";

import * as React from "react";
import Link from "next/link";
import { useForm } from "react-hook-form";
import { InboxIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { InboundSimulateRequest } from "@/lib/schemas/emails";
import { messageMutations } from "@/lib/queries/messages";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Form, FormControl, FormDescription, FormError, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { lazyResolver } from "@/lib/lazy-resolver";
import { messageHref } from "@/components/messages/hrefs";

const FIELDS = ["to", "from", "subject", "text", "html"] as const;

/** zod and the schema load on the first check of the form (lib/lazy-resolver.ts). */
const resolver = lazyResolver<InboundSimulateRequest>(async () => {
  const [{ zodResolver }, { inboundSimulateRequest }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/emails")]);
  return zodResolver(inboundSimulateRequest);
});

export function SimulateForm({ project }: { project: string }) {
  const [result, setResult] = React.useState<{ id: string | null; subject: string } | null>(null);
  const form = useForm<InboundSimulateRequest>({
    resolver,
    defaultValues: { to: "", from: "", subject: "", text: "", html: "" },
    mode: "onTouched",
  });
  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (v: InboundSimulateRequest) => messageMutations.simulate(project, { ...v, text: v.text || undefined, html: v.html || undefined }),
    onSuccess: (r, v) => {
      setResult({ id: r.id, subject: v.subject });
      toast.success("Inbound message received", { description: r.id ? `Message ${r.id}` : undefined });
    },
  });

  const text = (name: "to" | "from" | "subject", label: string, placeholder: string, description?: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input placeholder={placeholder} autoComplete="off" {...field} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );

  return (
    <div className="space-y-5">
      {result && (
        <div role="status" className="rounded-md border border-teal-300 bg-teal-50 p-3 text-sm text-teal-950 dark:border-teal-800 dark:bg-teal-950 dark:text-teal-50">
          The service received “{result.subject}”.{" "}
          {result.id ? (
            <Link href={messageHref(project, result.id)} className="font-medium underline underline-offset-4">
              Open the message {result.id}
            </Link>
          ) : (
            "The service did not return its id; the message is already listed in Messages."
          )}
        </div>
      )}
      <Form {...form}>
        <form noValidate aria-label="Simulate inbound mail" onSubmit={form.handleSubmit((v) => !mutation.isPending && mutation.mutate(v))} className="grid gap-4">
          {text("to", "To", "support@acme.test", "An address on one of this project's domains with receiving enabled.")}
          {text("from", "From", "customer@example.com")}
          {text("subject", "Subject", "I never got my receipt")}
          <FormField
            control={form.control}
            name="text"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Text</FormLabel>
                <FormControl>
                  <Textarea rows={5} {...field} value={field.value ?? ""} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="html"
            render={({ field }) => (
              <FormItem>
                <FormLabel>HTML</FormLabel>
                <FormControl>
                  <Textarea rows={5} className="font-mono text-xs" {...field} value={field.value ?? ""} />
                </FormControl>
                <FormDescription>Optional. Shown in a sandbox on the message screen, as real inbound mail is.</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormError message={formError?.message} correlationId={formError?.correlationId} />
          <div>
            <Button type="submit" pending={mutation.isPending}>
              <InboxIcon aria-hidden="true" />
              Receive message
            </Button>
          </div>
        </form>
      </Form>
    </div>
  );
}
