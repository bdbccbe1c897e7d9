"use client";

import { SEARCH_TERM_HELP } from "@/lib/messages/search-query/terms";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

/** The search language's terms, each with an example (loaded on first use, ./search-help-button.tsx). */
export function SearchHelpPopover({ open, onOpenChange, trigger }: LazyDialogProps) {
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent align="end" className="w-[min(26rem,calc(100vw-2rem))]" aria-labelledby="search-help-title">
        <h2 id="search-help-title" className="mb-2 text-sm font-medium">
          Search terms
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-xs">
          {SEARCH_TERM_HELP.map((t) => (
            <div key={t.term} className="contents">
              <dt className="font-mono">{t.term}</dt>
              <dd className="text-muted-foreground">
                {t.meaning} <code className="font-mono whitespace-nowrap text-foreground">{t.example}</code>
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-muted-foreground">Terms combine: a message must match all of them.</p>
      </PopoverContent>
    </Popover>
  );
}
