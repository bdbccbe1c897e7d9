"use client";

import * as React from "react";
import { createPortal } from "react-dom";
import { cn } from "@/lib/utils";

/**
 * A short text about its trigger, on hover or keyboard focus. Same parts and props as radix's
 * Tooltip (`Tooltip`, `TooltipTrigger asChild`, `TooltipContent`), written here because
 * tooltips sit on almost every screen (times, copy buttons) and radix's, with its positioning
 * engine, weighed more than the rest of a screen's own code; a text bubble needs much less.
 *
 * As radix does: it opens after `delayDuration` on hover and at once on keyboard focus; a
 * click, Escape, blur or leaving closes it; the pointer may move onto the bubble without
 * closing it; while open the trigger is described by it (`aria-describedby`). The bubble is
 * portalled to <body> (no clipping by scrolling tables), above the trigger, or below when
 * there is no room, kept inside the viewport.
 */
const DelayContext = React.createContext(300);

export function TooltipProvider({ delayDuration = 300, children }: { delayDuration?: number; children: React.ReactNode }) {
  return <DelayContext.Provider value={delayDuration}>{children}</DelayContext.Provider>;
}

type TooltipState = {
  open: boolean;
  id: string;
  trigger: React.RefObject<HTMLElement | null>;
  show: (delayed: boolean) => void;
  hide: (soon?: boolean) => void;
};
const TooltipContext = React.createContext<TooltipState | null>(null);

function useTooltip(part: string): TooltipState {
  const state = React.useContext(TooltipContext);
  if (!state) throw new Error(`<${part}> must be used inside <Tooltip>`);
  return state;
}

export function Tooltip({ children }: { children: React.ReactNode }) {
  const delay = React.useContext(DelayContext);
  const [open, setOpen] = React.useState(false);
  const id = React.useId();
  const trigger = React.useRef<HTMLElement | null>(null);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const state = React.useMemo<TooltipState>(() => {
    const later = (fn: () => void, ms: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(fn, ms);
    };
    return {
      open,
      id,
      trigger,
      show: (delayed) => (delayed ? later(() => setOpen(true), delay) : (clearTimeout(timer.current), setOpen(true))),
      // `soon`: the pointer left the trigger; give it a moment to reach the bubble.
      hide: (soon) => (soon ? later(() => setOpen(false), 100) : (clearTimeout(timer.current), setOpen(false))),
    };
  }, [open, id, delay]);

  React.useEffect(() => () => clearTimeout(timer.current), []);
  React.useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => event.key === "Escape" && state.hide();
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, state]);

  return <TooltipContext.Provider value={state}>{children}</TooltipContext.Provider>;
}

type TriggerChildProps = React.HTMLAttributes<HTMLElement> & { ref?: React.Ref<HTMLElement> };

/** Only `asChild` is supported: the child element is the trigger. */
export function TooltipTrigger({ children }: { asChild?: boolean; children: React.ReactElement<TriggerChildProps> }) {
  const { open, id, trigger, show, hide } = useTooltip("TooltipTrigger");
  const pointerDown = React.useRef(false);
  const own = children.props;
  const chain =
    <E,>(theirs: ((event: E) => void) | undefined, ours: (event: E) => void) =>
    (event: E) => {
      theirs?.(event);
      ours(event);
    };
  const setRef = (node: HTMLElement | null) => {
    trigger.current = node;
    const theirs = own.ref;
    if (typeof theirs === "function") theirs(node);
    else if (theirs) (theirs as React.RefObject<HTMLElement | null>).current = node;
  };
  return React.cloneElement(children, {
    ref: setRef,
    "aria-describedby": open ? [own["aria-describedby"], id].filter(Boolean).join(" ") : own["aria-describedby"],
    onPointerEnter: chain(own.onPointerEnter, (e: React.PointerEvent) => e.pointerType !== "touch" && show(true)),
    onPointerLeave: chain(own.onPointerLeave, () => hide(true)),
    onPointerDown: chain(own.onPointerDown, () => {
      pointerDown.current = true;
      hide();
    }),
    onPointerUp: chain(own.onPointerUp, () => setTimeout(() => (pointerDown.current = false), 0)),
    onFocus: chain(own.onFocus, () => !pointerDown.current && show(false)),
    onBlur: chain(own.onBlur, () => hide()),
    onClick: chain(own.onClick, () => hide()),
  } as TriggerChildProps);
}

type Placement = { top: number; left: number; side: "top" | "bottom"; arrowLeft: number };
const MARGIN = 8;

function place(anchor: DOMRect, bubble: DOMRect, gap: number): Placement {
  const roomAbove = anchor.top - gap - bubble.height >= MARGIN;
  const side = roomAbove || anchor.bottom + gap + bubble.height > window.innerHeight - MARGIN ? "top" : "bottom";
  const top = side === "top" ? anchor.top - gap - bubble.height : anchor.bottom + gap;
  const centre = anchor.left + anchor.width / 2;
  const left = Math.min(Math.max(centre - bubble.width / 2, MARGIN), Math.max(MARGIN, window.innerWidth - MARGIN - bubble.width));
  return { top, left, side, arrowLeft: Math.min(Math.max(centre - left, 10), bubble.width - 10) };
}

export function TooltipContent({ className, sideOffset = 4, children }: { className?: string; sideOffset?: number; children: React.ReactNode }) {
  const { open, id, trigger, show, hide } = useTooltip("TooltipContent");
  const bubble = React.useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = React.useState<Placement | null>(null);

  React.useLayoutEffect(() => {
    if (!open) {
      setPlacement(null);
      return;
    }
    const update = () => {
      if (trigger.current && bubble.current) setPlacement(place(trigger.current.getBoundingClientRect(), bubble.current.getBoundingClientRect(), sideOffset + 5));
    };
    update();
    window.addEventListener("scroll", update, true);
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update, true);
      window.removeEventListener("resize", update);
    };
  }, [open, trigger, sideOffset, children]);

  if (!open) return null;
  return createPortal(
    <div
      ref={bubble}
      id={id}
      role="tooltip"
      data-slot="tooltip-content"
      data-state="delayed-open"
      data-side={placement?.side}
      onPointerEnter={() => show(false)}
      onPointerLeave={() => hide(true)}
      style={{ position: "fixed", top: placement?.top ?? 0, left: placement?.left ?? 0, visibility: placement ? "visible" : "hidden" }}
      className={cn(
        "z-50 w-fit max-w-sm rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md data-[state=delayed-open]:animate-fade-in",
        className,
      )}
    >
      {children}
      <svg
        width="10"
        height="5"
        viewBox="0 0 30 10"
        preserveAspectRatio="none"
        aria-hidden="true"
        className={cn("absolute fill-foreground", placement?.side === "bottom" ? "bottom-full rotate-180" : "top-full")}
        style={{ left: (placement?.arrowLeft ?? 0) - 5 }}
      >
        <polygon points="0,0 30,0 15,10" />
      </svg>
    </div>,
    document.body,
  );
}
