"use client";

import * as React from "react";
import { PaletteLoading } from "@/components/shell/palette-frame";

const PaletteContext = React.createContext<{ open: () => void; preload: () => void } | null>(null);

export function usePalette() {
  const value = React.useContext(PaletteContext);
  if (!value) throw new Error("usePalette must be used inside <CommandPalette>");
  return value;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("[role=dialog], [role=menu], [role=listbox]") !== null;
}

const loadDialog = () => import("@/components/shell/command-palette-dialog");
const CommandPaletteDialog = React.lazy(() => loadDialog().then((m) => ({ default: m.CommandPaletteDialog })));

/**
 * Ctrl/Cmd+K: jump to any screen, switch project, open a message by pasted id. Also owns
 * the `/` shortcut, which focuses the page's search box where the page has one. The palette's
 * code (cmdk, the dialog) loads the first time it is opened, not with every screen; until it
 * has, a frame of the same shape takes the typing.
 */
export function CommandPalette({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = React.useState(false);
  const [wanted, setWanted] = React.useState(false);
  const [search, setSearch] = React.useState("");
  const [enterPending, setEnterPending] = React.useState(false);

  const setOpenAndForget = React.useCallback((next: boolean) => {
    setOpen(next);
    if (next) setWanted(true);
    else {
      setSearch("");
      setEnterPending(false);
    }
  }, []);

  const openRef = React.useRef(open);
  openRef.current = open;

  React.useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpenAndForget(!openRef.current);
        return;
      }
      if (event.key === "/" && !event.metaKey && !event.ctrlKey && !event.altKey && !isEditable(event.target)) {
        const input = document.querySelector<HTMLInputElement>("[data-page-search]");
        if (input) {
          event.preventDefault();
          input.focus();
          input.select();
        }
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [setOpenAndForget]);

  const context = React.useMemo(() => ({ open: () => setOpenAndForget(true), preload: () => void loadDialog() }), [setOpenAndForget]);
  const onEnterHandled = React.useCallback(() => setEnterPending(false), []);
  const loading = open ? <PaletteLoading search={search} onSearchChange={setSearch} onEnter={() => setEnterPending(true)} onClose={() => setOpenAndForget(false)} /> : null;

  return (
    <PaletteContext.Provider value={context}>
      {children}
      {wanted && (
        <React.Suspense fallback={loading}>
          <CommandPaletteDialog open={open} onOpenChange={setOpenAndForget} search={search} onSearchChange={setSearch} enterPending={enterPending} onEnterHandled={onEnterHandled} />
        </React.Suspense>
      )}
    </PaletteContext.Provider>
  );
}
