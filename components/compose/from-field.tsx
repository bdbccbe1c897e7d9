"use client";

import type { Address } from "@/lib/schemas/common";
import { Input } from "@/components/ui/input";

/**
 * The sender: a name, and an address whose domain is one of the project's verified domains
 * (offered as suggestions); any address can still be typed, and the service has the last word.
 */
export function FromField({ domains, value, onChange, error }: { domains: string[]; value: Address; onChange: (v: Address) => void; error?: string }) {
  return (
    <fieldset className="grid gap-4 md:grid-cols-2">
      <legend className="sr-only">From</legend>
      <div className="space-y-1.5">
        <label htmlFor="from-email" className="text-sm font-medium">
          From address
        </label>
        <Input
          id="from-email"
          list="from-domains"
          value={value?.email ?? ""}
          onChange={(e) => onChange({ ...value, email: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby="from-help"
        />
        <datalist id="from-domains">
          {domains.flatMap((d) => ["hello", "noreply", "news"].map((local) => <option key={`${local}@${d}`} value={`${local}@${d}`} />))}
        </datalist>
        <p id="from-help" className="text-xs text-muted-foreground">
          {domains.length ? `Verified domains: ${domains.join(", ")}.` : "This project has no verified domain yet; the service will refuse other senders."}
        </p>
        {error && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{error}</p>}
      </div>
      <div className="space-y-1.5">
        <label htmlFor="from-name" className="text-sm font-medium">
          Sender name
        </label>
        <Input id="from-name" value={value?.name ?? ""} placeholder="Optional" onChange={(e) => onChange({ ...value, name: e.target.value || undefined })} />
      </div>
    </fieldset>
  );
}
