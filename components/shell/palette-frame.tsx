"use client";

import { SearchIcon } from "lucide-react";

export const PALETTE_PLACEHOLDER = "Go to a screen, switch project, or paste a message id…";

export function PaletteTip({ projectName }: { projectName?: string }) {
  return (
    <p className="border-t px-3 py-2 text-xs text-muted-foreground">
      Tip: paste a message id to open it{projectName ? ` in ${projectName}` : ""}. <kbd className="font-mono">/</kbd> focuses a page&apos;s search.
    </p>
  );
}

/**
 * The palette's frame while its code loads (the first opening only, a moment): same place,
 * same input, so what is typed meanwhile is kept and handed over. Escape closes it.
 */
export function PaletteLoading({ search, onSearchChange, onEnter, onClose }: { search: string; onSearchChange: (v: string) => void; onEnter: () => void; onClose: () => void }) {
  return (
    <div className="fixed inset-0 z-50 bg-black/50" onClick={onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        aria-busy="true"
        className="fixed top-[20%] left-1/2 w-full max-w-[calc(100%-2rem)] -translate-x-1/2 overflow-hidden rounded-lg border bg-background shadow-lg sm:max-w-xl"
        onClick={(e) => e.stopPropagation()}
      >
        <div className="flex h-12 items-center gap-2 border-b px-3">
          <SearchIcon className="size-4 shrink-0 opacity-60" aria-hidden="true" />
          <input
            autoFocus
            aria-label="Command"
            placeholder={PALETTE_PLACEHOLDER}
            value={search}
            onChange={(e) => onSearchChange(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                onEnter();
              } else if (e.key === "Escape") {
                e.preventDefault();
                onClose();
              }
            }}
            className="flex h-10 w-full rounded-md bg-transparent py-3 text-sm outline-hidden placeholder:text-muted-foreground"
          />
        </div>
        <div className="h-24" />
        <PaletteTip />
      </div>
    </div>
  );
}
