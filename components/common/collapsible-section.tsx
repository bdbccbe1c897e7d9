import * as React from "react";
import { Button } from "@/components/ui/button";

/**
 * A titled part of a screen opened on demand: the title, a Show/Hide button that says whether
 * it is open (aria-expanded) and what it opens (aria-controls), a line on what it holds, and
 * the panel. The panel's contents are rendered only while open, so a screen can load them on
 * use (next/dynamic) and keep its first load small. Where the open state lives (the URL, a
 * component's state) is the caller's: `open` and `onToggle`.
 */
export function CollapsibleSection({
  id,
  title,
  open,
  onToggle,
  showLabel,
  hideLabel,
  description,
  children,
}: {
  /** Names the heading (`<id>-title`, the section's label) and the panel (`<id>-panel`). */
  id: string;
  title: string;
  open: boolean;
  onToggle: () => void;
  showLabel: string;
  hideLabel: string;
  description: React.ReactNode;
  /** The panel, rendered only while open. */
  children: React.ReactNode;
}) {
  const titleId = `${id}-title`;
  const panelId = `${id}-panel`;
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <Button variant="outline" size="sm" onClick={onToggle} aria-expanded={open} aria-controls={panelId}>
          {open ? hideLabel : showLabel}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">{description}</p>
      <div id={panelId}>{open && children}</div>
    </section>
  );
}
