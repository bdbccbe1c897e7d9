"use client";

import * as React from "react";
import { UploadIcon } from "lucide-react";
import type { ParsedCsv } from "@/lib/batch/csv";
import { Textarea } from "@/components/ui/textarea";
import { useFileDrop } from "@/components/common/use-file-drop";
import { cn } from "@/lib/utils";

export type LoadedFile = { text: string; fileName: string | null; parsed: ParsedCsv };

/** The CSV parser (Papa) loads with the first file or paste, or when the pointer or focus comes near, not with the screen. */
const loadParser = () => import("@/lib/batch/csv");
const preload = () => void loadParser().catch(() => {});

/** A CSV by upload (or drop), or rows pasted from a spreadsheet; parsed at once to show what was read. */
export function FileSource({ onLoaded, loaded, placeholder = "email,first_name,plan\nada@example.com,Ada,pro" }: { onLoaded: (f: LoadedFile | null) => void; loaded: LoadedFile | null; placeholder?: string }) {
  const [pasted, setPasted] = React.useState("");
  const inputId = React.useId();
  // Only the newest file or paste is reported, however the parser's loading and the reads interleave.
  const latest = React.useRef(0);

  async function read(text: string | null, fileName: string | null) {
    const turn = ++latest.current;
    if (text === null) return onLoaded(null);
    const { parseCsv } = await loadParser();
    if (turn === latest.current) onLoaded({ text, fileName, parsed: parseCsv(text) });
  }

  async function fromFile(file: File | undefined) {
    if (!file) return;
    const turn = ++latest.current;
    const text = await file.text();
    setPasted("");
    if (turn === latest.current) await read(text, file.name);
  }

  const { over, zoneProps } = useFileDrop((files) => void fromFile(files[0]));

  return (
    <div className="grid gap-4 md:grid-cols-2" onPointerEnter={preload} onFocus={preload}>
      <div
        {...zoneProps}
        className={cn("flex flex-col items-center justify-center gap-2 rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground", over && "border-primary bg-primary/5")}
      >
        <UploadIcon className="size-5" aria-hidden="true" />
        <span>Drop a CSV file here, or</span>
        <label htmlFor={inputId} className="cursor-pointer font-medium text-primary underline-offset-4 hover:underline">
          choose a file
        </label>
        <input id={inputId} type="file" accept=".csv,text/csv,text/plain" className="sr-only" aria-label="CSV file" onChange={(e) => void fromFile(e.target.files?.[0])} />
        {loaded?.fileName && <span className="text-foreground">{loaded.fileName}</span>}
      </div>
      <div className="space-y-1.5">
        <label htmlFor={`${inputId}-paste`} className="text-sm font-medium">
          Or paste rows
        </label>
        <Textarea
          id={`${inputId}-paste`}
          rows={6}
          className="font-mono text-xs"
          placeholder={placeholder}
          value={pasted}
          onChange={(e) => {
            setPasted(e.target.value);
            void read(e.target.value.trim() ? e.target.value : null, null);
          }}
        />
      </div>
      {loaded && (
        <p className="text-sm md:col-span-2" role="status">
          Read {loaded.parsed.rows.length.toLocaleString()} rows and {loaded.parsed.headers.length} columns
          {loaded.parsed.hasHeader ? " (the first line names the columns)" : " (no header line: columns are numbered)"}.
        </p>
      )}
    </div>
  );
}
