"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { ReplyIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { ReplyForm } from "@/lib/schemas/messages-index";
import { messageKeys, messageMutations } from "@/lib/queries/messages";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { TextareaField, TextField } from "@/components/common/text-field";
import { FormSubmitRow } from "@/components/common/form-submit-row";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { lazyResolver } from "@/lib/lazy-resolver";

const FIELDS = ["text", "html", "subject"] as const;

/** zod and the schema load on the first check of a field (lib/lazy-resolver.ts). */
const resolver = lazyResolver<ReplyForm>(async () => {
  const [{ zodResolver }, { replyForm }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/messages-index")]);
  return zodResolver(replyForm);
});

export function replySubject(subject: string | null): string {
  const s = subject?.trim() ?? "";
  return /^re:/i.test(s) ? s : `Re: ${s}`.trim();
}

/**
 * Reply in the thread. The Idempotency-Key is made when the form opens and kept until a reply
 * succeeds, so a double click, or a retry after a timeout, sends one reply.
 */
export function ReplyFormCard({ project, id, subject, to }: { project: string; id: string; subject: string | null; to: string }) {
  const queryClient = useQueryClient();
  const [key, setKey] = React.useState(() => crypto.randomUUID());
  const [showHtml, setShowHtml] = React.useState(false);
  // Synchronous guard: two clicks in one frame both pass validation before `isPending` re-renders.
  const inFlight = React.useRef(false);
  const defaults = React.useMemo(() => ({ text: "", html: "", subject: replySubject(subject), idempotencyKey: key }), [subject, key]);
  const form = useForm<ReplyForm>({ resolver, defaultValues: defaults, mode: "onTouched" });

  const { mutation, formError } = useFormMutation(form, FIELDS, {
    mutationFn: (values: ReplyForm) => messageMutations.reply(project, id, { ...values, html: values.html || undefined, idempotencyKey: key }),
    onSuccess: async (sent) => {
      toast.success("Reply sent", { id: `reply-${key}`, description: `To ${to}. It appears in the conversation.` });
      const next = crypto.randomUUID();
      setKey(next);
      form.reset({ ...defaults, idempotencyKey: next });
      setShowHtml(false);
      await queryClient.invalidateQueries({ queryKey: messageKeys.detail(project, id) });
      void sent;
    },
  });

  return (
    <Form {...form}>
      <form
        noValidate
        aria-label="Reply"
        onSubmit={form.handleSubmit((v) => {
          // A second click while the first is in flight does nothing (and would carry the same key anyway).
          if (inFlight.current) return;
          inFlight.current = true;
          mutation.mutate(v, { onSettled: () => (inFlight.current = false) });
        })}
        className="grid gap-3"
      >
        <p className="text-sm text-muted-foreground">
          To <span className="font-medium text-foreground">{to}</span>, in the same thread.
        </p>
        <TextField control={form.control} name="subject" label="Subject" />
        <TextareaField control={form.control} name="text" label="Message" rows={6} placeholder="Write your reply…" />
        {showHtml ? (
          <TextareaField
            control={form.control}
            name="html"
            label="HTML version"
            rows={5}
            className="font-mono text-xs"
            placeholder="<p>Optional HTML version of the reply</p>"
            description="Optional. Mail clients that show HTML use it; the text above is the fallback."
          />
        ) : (
          <Button type="button" variant="link" className="w-fit px-0" onClick={() => setShowHtml(true)}>
            Add an HTML version
          </Button>
        )}
        <FormSubmitRow error={formError} pending={mutation.isPending} icon={ReplyIcon} submitLabel="Send reply" />
      </form>
    </Form>
  );
}
