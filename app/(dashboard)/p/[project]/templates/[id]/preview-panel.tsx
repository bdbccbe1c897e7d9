"use client";

import * as React from "react";
import { AlertTriangleIcon } from "lucide-react";
import type { PreviewResponse } from "@/lib/schemas/templates";
import { Switch } from "@/components/ui/switch";
import { EmailFrame as PreviewFrame } from "@/components/messages/email-frame";
import { SchemeSwitch } from "@/components/messages/scheme-switch";
import { useEmailScheme } from "@/components/messages/use-email-scheme";

/** The rendered draft: subject, html at desktop and mobile widths side by side, text, and missing variables flagged. */
export function PreviewPanel({ preview, loading }: { preview: PreviewResponse | undefined; loading: boolean }) {
  const [images, setImages] = React.useState(false);
  const imagesId = React.useId();
  const [scheme, setScheme] = useEmailScheme();
  const [darkStyles, setDarkStyles] = React.useState<boolean | null>(null);
  return (
    <section className="space-y-4" aria-busy={loading} aria-label="Preview">
      {preview?.missing?.length ? (
        <div role="status" data-testid="missing-variables" className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Missing variables (they render empty): {preview.missing.map((m) => <code key={m} className="mx-1 rounded bg-muted px-1 font-mono text-xs [overflow-wrap:anywhere]">{m}</code>)}
          </span>
        </div>
      ) : preview ? (
        <p className="text-sm text-muted-foreground">Every variable has a value.</p>
      ) : null}
      <div className="space-y-1">
        <p className="text-xs font-medium text-muted-foreground">Subject</p>
        <p className="text-base font-medium" data-testid="preview-subject">{preview?.subject ?? (loading ? "Rendering…" : "—")}</p>
      </div>
      <div className="flex items-center gap-2">
        <Switch id={imagesId} checked={images} onCheckedChange={setImages} />
        <label htmlFor={imagesId} className="text-sm">Load remote images</label>
      </div>
      {preview?.html ? <SchemeSwitch value={scheme} onChange={setScheme} darkStyles={darkStyles} /> : null}
      {preview?.html ? (
        <div className="flex flex-wrap items-start gap-4 overflow-x-auto">
          <figure className="space-y-1">
            <figcaption className="text-xs text-muted-foreground">Desktop (600 px)</figcaption>
            <PreviewFrame html={preview.html} title="Desktop preview" width={600} height={520} allowRemoteImages={images} scheme={scheme} onDarkStyles={setDarkStyles} />
          </figure>
          <figure className="space-y-1">
            <figcaption className="text-xs text-muted-foreground">Mobile (375 px)</figcaption>
            <PreviewFrame html={preview.html} title="Mobile preview" width={375} height={520} allowRemoteImages={images} scheme={scheme} />
          </figure>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No HTML version.</p>
      )}
      <div className="space-y-1">
        <p className="text-xs font-medium text-muted-foreground">Text version</p>
        <pre data-testid="preview-text" className="max-h-72 overflow-auto whitespace-pre-wrap rounded-md border bg-muted/40 p-3 text-xs">{preview?.text ?? "No text version."}</pre>
      </div>
    </section>
  );
}
