/** The select trigger's look, shared by the radix trigger and the stand-in drawn before radix loads (components/common/filter-select.tsx). */
export const SELECT_TRIGGER_CLASS = [
  "flex w-fit items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-2 text-sm whitespace-nowrap shadow-xs transition-colors",
  "data-[size=default]:h-9 data-[size=sm]:h-8 data-[placeholder]:text-muted-foreground",
  "focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60",
  "disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive",
  "*:data-[slot=select-value]:line-clamp-1 *:data-[slot=select-value]:flex *:data-[slot=select-value]:items-center *:data-[slot=select-value]:gap-2 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0",
].join(" ");
