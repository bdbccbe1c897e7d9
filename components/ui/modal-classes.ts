/**
 * The look both modal kinds share (dialog.tsx, alert-dialog.tsx): the dimmed page behind, the
 * centred box that scrolls within the viewport, and the footer's buttons (stacked on a phone,
 * in a row on the right from `sm`).
 */
export const MODAL_OVERLAY = "fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in data-[state=closed]:animate-fade-out";

export const MODAL_BOX = [
  "fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border bg-background p-6 shadow-lg sm:max-w-lg",
  "data-[state=open]:animate-zoom-in data-[state=closed]:animate-fade-out",
].join(" ");

export const MODAL_FOOTER = "flex flex-col-reverse gap-2 sm:flex-row sm:justify-end";
