"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { SearchIcon } from "lucide-react";
import { EMAIL_PATTERN } from "@/lib/schemas/patterns";
import { contactMutations } from "@/lib/queries/contacts";
import { describeError } from "@/components/common/error-advice";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** One box: an address is looked up through the index, anything else as the service's contact id. */
export function LookupForm({ project }: { project: string }) {
  const [value, setValue] = React.useState("");
  const router = useRouter();
  const lookup = useMutation({
    mutationFn: (v: string) => contactMutations.lookup(project, EMAIL_PATTERN.test(v) ? { email: v } : { id: v }),
    onSuccess: (c) => router.push(`/p/${encodeURIComponent(project)}/contacts/${encodeURIComponent(c.id)}`),
  });
  const failed = lookup.error ? describeError(lookup.error) : null;
  return (
    <form
      className="flex flex-wrap items-start gap-2 rounded-md border p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) lookup.mutate(value.trim());
      }}
    >
      <div className="min-w-[18rem] flex-1 space-y-1">
        <label htmlFor="contact-lookup" className="text-sm font-medium">
          Look up a contact
        </label>
        <Input id="contact-lookup" placeholder="Contact id, or an address the dashboard has seen" value={value} onChange={(e) => setValue(e.target.value)} aria-describedby={failed ? "lookup-error" : undefined} />
        {failed && (
          <p id="lookup-error" role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
            {failed.message}
          </p>
        )}
      </div>
      <Button type="submit" variant="outline" className="mt-6" pending={lookup.isPending}>
        <SearchIcon aria-hidden="true" />
        Look up
      </Button>
    </form>
  );
}
