"use client";

import * as React from "react";
import { SearchIcon, XIcon } from "lucide-react";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { useUrlState } from "@/components/hooks/use-url-state";

/**
 * The page's search box, kept in the URL (`param`, "q" by default). Typing replaces the
 * history entry after a short pause instead of adding one per key. `/` anywhere on the page
 * focuses it (the shell looks for `data-page-search`).
 */
export function SearchInput({ param = "q", placeholder = "Search", label = "Search", className }: { param?: string; placeholder?: string; label?: string; className?: string }) {
  const { get, set, isPending } = useUrlState();
  const urlValue = get(param) ?? "";
  const [value, setValue] = React.useState(urlValue);
  const lastPushed = React.useRef(urlValue);

  // Follow the URL when it changes from outside (Back, a link), not while the user types.
  React.useEffect(() => {
    if (urlValue !== lastPushed.current) {
      lastPushed.current = urlValue;
      setValue(urlValue);
    }
  }, [urlValue]);

  React.useEffect(() => {
    if (value === lastPushed.current) return;
    const t = setTimeout(() => {
      lastPushed.current = value;
      set({ [param]: value.trim() || null }, { replace: true });
    }, 300);
    return () => clearTimeout(t);
  }, [value, param, set]);

  return (
    <div className={cn("relative w-full max-w-sm", className)}>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input
        type="search"
        data-page-search=""
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && value) {
            e.preventDefault();
            setValue("");
          }
        }}
        className="pr-14 pl-8 [&::-webkit-search-cancel-button]:hidden"
        aria-busy={isPending || undefined}
      />
      {value ? (
        <button type="button" onClick={() => setValue("")} className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-0.5 text-muted-foreground hover:text-foreground" aria-label="Clear search">
          <XIcon className="size-4" aria-hidden="true" />
        </button>
      ) : (
        <kbd className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 rounded border bg-muted px-1.5 font-mono text-[10px] text-muted-foreground">/</kbd>
      )}
    </div>
  );
}
