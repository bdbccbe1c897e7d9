"use client";

import * as React from "react";
import { usePathname, useRouter } from "next/navigation";
import { useTheme } from "next-themes";
import { FolderKanbanIcon, MailSearchIcon, MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { CommandDialog, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator, CommandShortcut } from "@/components/ui/command";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";
import { looksLikeMessageId, projectHref, switchProjectPath, visibleAdminScreens, visibleProjectScreens } from "@/components/shell/nav";

const PaletteContext = React.createContext<{ open: () => void } | null>(null);

export function usePalette() {
  const value = React.useContext(PaletteContext);
  if (!value) throw new Error("usePalette must be used inside <CommandPalette>");
  return value;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("[role=dialog], [role=menu], [role=listbox]") !== null;
}

/**
 * Ctrl/Cmd+K: jump to any screen, switch project, open a message by pasted id. Also owns
 * the `/` shortcut, which focuses the page's search box where the page has one.
 */
export function CommandPalette({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = React.useState(false);
  const [search, setSearch] = React.useState("");
  const router = useRouter();
  const pathname = usePathname();
  const { setTheme } = useTheme();
  const { user, projects, can } = useShell();
  const { project } = useCurrentProject();

  React.useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen((o) => !o);
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
  }, []);

  function go(href: string) {
    setOpen(false);
    setSearch("");
    router.push(href);
  }

  const query = search.trim();
  const messageId = project && can("messages:read") && looksLikeMessageId(query) ? query : null;
  const screens = visibleProjectScreens(user);
  const admin = visibleAdminScreens(user);
  const context = React.useMemo(() => ({ open: () => setOpen(true) }), []);

  return (
    <PaletteContext.Provider value={context}>
      {children}
      <CommandDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) setSearch("");
        }}
      >
        <CommandInput placeholder="Go to a screen, switch project, or paste a message id…" value={search} onValueChange={setSearch} aria-label="Command" />
        <CommandList>
          <CommandEmpty>Nothing matches “{query}”.</CommandEmpty>
          {messageId && project && (
            <CommandGroup heading="Message">
              {/* The id is in the value and the keywords, so cmdk's own filter always keeps this item. */}
              <CommandItem value={`open-message ${messageId}`} keywords={[messageId]} onSelect={() => go(`${projectHref(project.externalId, "messages")}/${encodeURIComponent(messageId)}`)}>
                <MailSearchIcon aria-hidden="true" />
                <span className="truncate">
                  Open message <span className="font-mono">{messageId}</span>
                </span>
                <CommandShortcut>{project.name}</CommandShortcut>
              </CommandItem>
            </CommandGroup>
          )}
          {project && screens.length > 0 && (
            <CommandGroup heading={`Go to · ${project.name}`}>
              {screens.map((s) => (
                <CommandItem key={s.key} value={`${s.label} ${s.keywords?.join(" ") ?? ""}`} onSelect={() => go(projectHref(project.externalId, s.segment))}>
                  <s.icon aria-hidden="true" />
                  {s.label}
                </CommandItem>
              ))}
            </CommandGroup>
          )}
          {admin.length > 0 && (
            <CommandGroup heading="Admin">
              {admin.map((s) => (
                <CommandItem key={s.key} value={`${s.label} admin ${s.keywords?.join(" ") ?? ""}`} onSelect={() => go(s.href)}>
                  <s.icon aria-hidden="true" />
                  {s.label}
                </CommandItem>
              ))}
            </CommandGroup>
          )}
          {projects.length > 1 && (
            <CommandGroup heading="Switch project">
              {projects.map((p) => (
                <CommandItem key={p.id} value={`project ${p.name} ${p.externalId}`} onSelect={() => go(switchProjectPath(pathname, p.externalId))}>
                  <FolderKanbanIcon aria-hidden="true" />
                  <span className="truncate">{p.name}</span>
                  <CommandShortcut className="font-mono tracking-normal">{p.externalId}</CommandShortcut>
                </CommandItem>
              ))}
            </CommandGroup>
          )}
          <CommandSeparator />
          <CommandGroup heading="Theme">
            {(
              [
                ["light", "Light theme", SunIcon],
                ["dark", "Dark theme", MoonIcon],
                ["system", "System theme", MonitorIcon],
              ] as const
            ).map(([value, label, Icon]) => (
              <CommandItem
                key={value}
                value={`${label} appearance`}
                onSelect={() => {
                  setTheme(value);
                  setOpen(false);
                }}
              >
                <Icon aria-hidden="true" />
                {label}
              </CommandItem>
            ))}
          </CommandGroup>
        </CommandList>
        {!messageId && (
          <p className="border-t px-3 py-2 text-xs text-muted-foreground">
            Tip: paste a message id to open it{project ? ` in ${project.name}` : ""}. <kbd className="font-mono">/</kbd> focuses a page&apos;s search.
          </p>
        )}
      </CommandDialog>
    </PaletteContext.Provider>
  );
}
