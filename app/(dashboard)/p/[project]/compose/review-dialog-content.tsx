"use client";

import * as React from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { isAppError } from "@/lib/errors";
import type { SendEmail } from "@/lib/schemas/emails";
import { composeMutations } from "@/lib/queries/compose";
import { renderQuery } from "@/lib/queries/templates";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-error";
import { describeError } from "@/components/common/error-advice";
import { EmailFrame as PreviewFrame } from "@/components/messages/email-frame";
import { formatBytes } from "@/components/common/format-bytes";
import { SchemeSwitch } from "@/components/messages/scheme-switch";
import { useEmailScheme } from "@/components/messages/use-email-scheme";
import { scheduleInWords } from "@/components/compose/schedule-words";
import { base64Size } from "@/lib/schemas/emails";
import type { PresendDraft } from "@/lib/schemas/presend";
import { PresendChecks } from "@/components/presend/presend-checks";

const list = (a: SendEmail["to"] | undefined) => (a ?? []).map((x) => (x.name ? `${x.name} <${x.email}>` : x.email)).join(", ");

/**
 * The review before sending: what will go out, rendered, and one button that names the
 * number of recipients. The compose session's Idempotency-Key is kept across retries of the
 * same message (a double click or a retry after a network error sends once) and renewed
 * only when the message itself changed. Loaded when a message is first reviewed (./review-dialog.tsx).
 */
export function ReviewDialogContent({
  project,
  request,
  onClose,
  onSent,
  onFieldError,
}: {
  project: string;
  request: SendEmail | null;
  onClose: () => void;
  onSent: (id: string) => void;
  onFieldError: (param: string, message: string) => void;
}) {
  const session = React.useRef<{ key: string; body: string } | null>(null);
  const inFlight = React.useRef(false);
  const [scheme, setScheme] = useEmailScheme();
  const [darkStyles, setDarkStyles] = React.useState<boolean | null>(null);
  const count = request ? request.to.length + (request.cc?.length ?? 0) + (request.bcc?.length ?? 0) : 0;
  const rendered = useQuery({
    ...renderQuery(project, request?.templateId ?? "", (request?.data as Record<string, unknown>) ?? {}),
    enabled: Boolean(request?.templateId),
  });
  const mutation = useMutation({
    mutationFn: (body: SendEmail) => {
      const text = JSON.stringify(body);
      if (!session.current || session.current.body !== text) session.current = { key: crypto.randomUUID(), body: text };
      return composeMutations.send(project, body, session.current.key);
    },
    onSuccess: (sent) => {
      toast.success(request?.scheduledAt ? "Message scheduled" : "Message sent", { description: `Message ${sent.id} is ${sent.status}.` });
      onSent(sent.id);
    },
    onError: (e) => {
      if (isAppError(e) && e.param && e.status === 400 && /^(from|to|cc|bcc|replyTo|subject|html|text|templateId|scheduledAt|attachments)(\.|$)/.test(e.param)) onFieldError(e.param.replace(/^scheduledAt$/, "scheduledLocal"), e.message);
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });

  function send() {
    if (!request || inFlight.current || mutation.isSuccess) return;
    inFlight.current = true;
    mutation.mutate(request);
  }

  const subject = request?.templateId ? request.subject || rendered.data?.subject : request?.subject;
  const html = request?.templateId ? rendered.data?.html : request?.html;
  const text = request?.templateId ? rendered.data?.text : request?.text;
  // What will actually go out: a template is checked once the service has rendered it.
  const checked: PresendDraft | null =
    request && (!request.templateId || rendered.data)
      ? {
          subject: subject ?? "",
          html: html ?? undefined,
          text: text ?? undefined,
          attachments: (request.attachments ?? []).map((a) => ({ filename: a.filename, size: base64Size(a.content), ...(a.contentType ? { contentType: a.contentType } : {}) })),
          headers: request.headers ?? {},
          from: request.from.email,
        }
      : null;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const failed = mutation.error ? describeError(mutation.error) : null;

  return (
    <Dialog open={request !== null} onOpenChange={(o) => !o && !mutation.isPending && !mutation.isSuccess && onClose()}>
      {/*
        Its height is fixed and only the middle scrolls: the checks arrive after it opens and
        add to what it holds, and a box that grew, centred, moved its buttons under a pointer
        about to press them (a click landing half on the old place is lost).
      */}
      <DialogContent className="flex h-[calc(100dvh-2rem)] flex-col gap-0 overflow-hidden p-0 sm:max-w-3xl">
        <DialogHeader className="border-b p-6 pb-4">
          <DialogTitle>Review before sending</DialogTitle>
          <DialogDescription>
            {request?.scheduledAt ? `Scheduled: ${scheduleInWords(request.scheduledAt, zone)}.` : "It goes out as soon as you send it."}
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-6 py-4" tabIndex={0} role="region" aria-label="The message and its checks">
          {request && (
            <div className="space-y-3 text-sm">
              <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
                <dt className="text-muted-foreground">From</dt>
                <dd className="break-all">{list([request.from])}</dd>
                <dt className="text-muted-foreground">To</dt>
                <dd className="break-all">{list(request.to)}</dd>
                {request.cc?.length ? (<><dt className="text-muted-foreground">Cc</dt><dd className="break-all">{list(request.cc)}</dd></>) : null}
                {request.bcc?.length ? (<><dt className="text-muted-foreground">Bcc</dt><dd className="break-all">{list(request.bcc)}</dd></>) : null}
                <dt className="text-muted-foreground">Subject</dt>
                <dd>{subject ?? "—"}</dd>
                {request.tags?.length ? (<><dt className="text-muted-foreground">Tags</dt><dd>{request.tags.map((t) => `${t.name}=${t.value}`).join(", ")}</dd></>) : null}
                {request.headers ? (<><dt className="text-muted-foreground">Headers</dt><dd className="break-all">{Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`).join("; ")}</dd></>) : null}
                {request.attachments?.length ? (<><dt className="text-muted-foreground">Attachments</dt><dd>{request.attachments.map((a) => `${a.filename} (${formatBytes(base64Size(a.content))})`).join(", ")}</dd></>) : null}
              </dl>
              {request.templateId && rendered.isLoading && <p className="text-muted-foreground">Rendering the template…</p>}
              {rendered.data?.missing?.length ? <p className="text-amber-700 dark:text-amber-300">Missing variables: {rendered.data.missing.join(", ")}</p> : null}
              {html ? <SchemeSwitch value={scheme} onChange={setScheme} darkStyles={darkStyles} /> : null}
              {html ? <PreviewFrame html={html} title="Preview of the message" height={320} scheme={scheme} onDarkStyles={setDarkStyles} /> : null}
              {text ? <pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded-md border bg-muted/40 p-3 text-xs">{text}</pre> : null}
            </div>
          )}
          {request && !(request.templateId && rendered.error) && <PresendChecks project={project} draft={checked} title="Checks before sending" />}
          <FormError message={failed?.message} correlationId={failed?.correlationId} />
        </div>
        <DialogFooter className="border-t px-6 py-4">
          <Button variant="outline" onClick={onClose} disabled={mutation.isPending || mutation.isSuccess}>
            Back to editing
          </Button>
          <Button onClick={send} pending={mutation.isPending || mutation.isSuccess} data-testid="confirm-send">
            {request?.scheduledAt ? "Schedule" : "Send"} to {count} {count === 1 ? "recipient" : "recipients"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
