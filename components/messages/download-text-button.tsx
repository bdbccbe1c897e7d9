"use client";

import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * Saves text the screen already holds (an email's source, its headers) as a plain-text file.
 * Always text/plain: an email's html saved as .html and opened from disk would run its scripts.
 */
export function DownloadTextButton({ text, filename, children }: { text: string; filename: string; children: React.ReactNode }) {
  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = filename;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <Button type="button" size="sm" variant="outline" onClick={download}>
      <DownloadIcon aria-hidden="true" />
      {children}
    </Button>
  );
}
