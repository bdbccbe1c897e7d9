"use client";

import { DownloadIcon } from "lucide-react";
import type { DnsRecord } from "@/lib/schemas/domains";
import { zoneFileSnippet } from "@/lib/domains/records";
import { Button } from "@/components/ui/button";

/** The records as a BIND zone-file snippet, built in the browser from what is on screen. */
export function ZoneFileButton({ domain, records }: { domain: string; records: DnsRecord[] }) {
  function download() {
    const blob = new Blob([zoneFileSnippet(domain, records)], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `${domain}.zone`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <Button type="button" variant="outline" onClick={download} disabled={records.length === 0}>
      <DownloadIcon aria-hidden="true" />
      Zone file
    </Button>
  );
}
