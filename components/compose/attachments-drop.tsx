"use client";

import * as React from "react";
import { PaperclipIcon, Trash2Icon } from "lucide-react";
import { MAX_ATTACHMENTS_BYTES } from "@/lib/schemas/limits";
import { Button } from "@/components/ui/button";
import { useFileDrop } from "@/components/common/use-file-drop";
import { cn } from "@/lib/utils";
import { formatBytes } from "@/components/common/format-bytes";

export type ComposeAttachment = { filename: string; content: string; contentType: string; size: number };

/** The file's bytes as base64, which is how the service expects `content`. */
async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Drag and drop (or choose) files; each is listed with name and size against the stated limit. */
export function AttachmentsDrop({ value, onChange, error }: { value: ComposeAttachment[]; onChange: (v: ComposeAttachment[]) => void; error?: string }) {
  const inputId = React.useId();
  const total = value.reduce((s, a) => s + a.size, 0);

  async function add(files: FileList | null) {
    if (!files?.length) return;
    const added = await Promise.all(
      Array.from(files).map(async (f) => ({ filename: f.name, content: await toBase64(f), contentType: f.type || "application/octet-stream", size: f.size })),
    );
    onChange([...value, ...added]);
  }
  const { over, zoneProps } = useFileDrop((files) => void add(files));

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium" id={`${inputId}-label`}>
        Attachments
      </p>
      <div
        {...zoneProps}
        className={cn("rounded-md border border-dashed px-4 py-4 text-center text-sm text-muted-foreground", over && "border-primary bg-primary/5", error && "border-destructive")}
      >
        <PaperclipIcon className="mx-auto mb-1 size-4" aria-hidden="true" />
        Drop files here or{" "}
        <label htmlFor={inputId} className="cursor-pointer font-medium text-primary underline-offset-4 hover:underline">
          choose files
        </label>
        . Up to {formatBytes(MAX_ATTACHMENTS_BYTES)} in total.
        <input
          id={inputId}
          type="file"
          multiple
          className="sr-only"
          aria-labelledby={`${inputId}-label`}
          onChange={(e) => {
            void add(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {value.length > 0 && (
        <ul className="divide-y rounded-md border text-sm">
          {value.map((a, i) => (
            <li key={`${a.filename}-${i}`} className="flex items-center justify-between gap-2 px-3 py-1.5">
              <span className="truncate">{a.filename}</span>
              <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                {formatBytes(a.size)} · {a.contentType}
              </span>
              <Button type="button" variant="ghost" size="icon-sm" aria-label={`Remove ${a.filename}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
                <Trash2Icon aria-hidden="true" />
              </Button>
            </li>
          ))}
          <li className={cn("px-3 py-1.5 text-xs", total > MAX_ATTACHMENTS_BYTES ? "text-destructive dark:text-red-300" : "text-muted-foreground")}>
            {formatBytes(total)} of {formatBytes(MAX_ATTACHMENTS_BYTES)}
          </li>
        </ul>
      )}
      {error && (
        <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
