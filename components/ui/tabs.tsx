"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * Tabs as the WAI-ARIA pattern describes them, with radix's parts and props (`Tabs value
 * onValueChange`, `TabsList`, `TabsTrigger value`, `TabsContent value`), written here because
 * radix's (collection, roving focus, presence) weighed more than the rest of the message
 * screen's own code. Controlled only, as every use is (the tab lives in the URL or in state).
 *
 * As radix does: the selected tab is the one reached by Tab, the arrow keys, Home and End
 * move between the others (skipping disabled ones) and select the tab they reach; a click or
 * Enter/Space selects; only the selected panel is rendered, labelled by its tab.
 */
type TabsState = { value: string; select: (value: string) => void; id: string };
const TabsContext = React.createContext<TabsState | null>(null);

function useTabs(part: string): TabsState {
  const state = React.useContext(TabsContext);
  if (!state) throw new Error(`<${part}> must be used inside <Tabs>`);
  return state;
}

const partId = (id: string, part: "trigger" | "content", value: string) => `${id}-${part}-${value.replace(/\s+/g, "-")}`;

export function Tabs({
  value,
  onValueChange,
  className,
  children,
  ...props
}: Omit<React.ComponentProps<"div">, "defaultValue" | "dir"> & { value: string; onValueChange: (value: string) => void }) {
  const id = React.useId();
  const state = React.useMemo(() => ({ value, select: onValueChange, id }), [value, onValueChange, id]);
  return (
    <TabsContext.Provider value={state}>
      <div data-slot="tabs" data-orientation="horizontal" className={cn("flex flex-col gap-3", className)} {...props}>
        {children}
      </div>
    </TabsContext.Provider>
  );
}

const KEY_STEP: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function TabsList({ className, onKeyDown, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn("inline-flex h-9 w-fit items-center justify-center rounded-lg bg-muted p-1 text-muted-foreground", className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        const step = KEY_STEP[event.key];
        if (!step || event.defaultPrevented) return;
        const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)'));
        const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
        if (at < 0 || tabs.length === 0) return;
        event.preventDefault();
        const next = tabs[step(at, tabs.length)]!;
        next.focus();
        next.click();
      }}
      {...props}
    />
  );
}

export function TabsTrigger({ value, className, onClick, disabled, ...props }: Omit<React.ComponentProps<"button">, "value"> & { value: string }) {
  const tabs = useTabs("TabsTrigger");
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={partId(tabs.id, "trigger", value)}
      aria-selected={selected}
      aria-controls={partId(tabs.id, "content", value)}
      data-state={selected ? "active" : "inactive"}
      data-disabled={disabled ? "" : undefined}
      data-slot="tabs-trigger"
      disabled={disabled}
      tabIndex={selected ? 0 : -1}
      className={cn(
        "inline-flex h-full items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors",
        "hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60",
        "data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4",
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented && !selected) tabs.select(value);
      }}
      {...props}
    />
  );
}

export function TabsContent({ value, className, ...props }: Omit<React.ComponentProps<"div">, "value"> & { value: string }) {
  const tabs = useTabs("TabsContent");
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={partId(tabs.id, "content", value)}
      aria-labelledby={partId(tabs.id, "trigger", value)}
      tabIndex={0}
      data-state="active"
      data-orientation="horizontal"
      data-slot="tabs-content"
      className={cn("flex-1 outline-none", className)}
      {...props}
    />
  );
}
