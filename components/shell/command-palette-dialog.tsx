"use client";

import * as React from "react";
import { usePathname, useRouter } from "next/navigation";
import { useTheme } from "next-themes";
import { FolderKanbanIcon, MailSearchIcon, MonitorIcon, MoonIcon, SunIcon, type LucideIcon } from "lucide-react";
import { CommandDialog, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator, CommandShortcut } from "@/components/ui/command";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";
import { looksLikeMessageId, projectHref, switchProjectPath, visibleAdminScreens, visibleProjectScreens } from "@/components/shell/nav";
import { PALETTE_PLACEHOLDER, PaletteTip } from "@/components/shell/palette-frame";
import { parseSearchQuery } from "@/lib/messages/search-query/parse";
import { SavedViewsPaletteGroup } from "@/components/messages/saved-views-palette-group";

/**
 * The palette itself: jump to any screen, switch project, open a message by pasted id, change
 * the theme. Loaded the first time it is opened (command-palette.tsx); `search` is kept by
 * the caller so what was typed before it loaded is not lost, and `enterPending` replays an
 * Enter pressed in that moment on the item chosen.
 */
export function CommandPaletteDialog({
  open,
  onOpenChange,
  search,
  onSearchChange,
  enterPending,
  onEnterHandled,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  search: string;
  onSearchChange: (search: string) => void;
  enterPending: boolean;
  onEnterHandled: () => void;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const { setTheme } = useTheme();
  const { user, projects, can } = useShell();
  const { project } = useCurrentProject();
  const inputRef = React.useRef<HTMLInputElement>(null);

  React.useEffect(() => {
    if (!enterPending) return;
    // After cmdk has filtered and chosen its first item: the same Enter, on the real input.
    const timer = setTimeout(() => {
      inputRef.current?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
      onEnterHandled();
    }, 0);
    return () => clearTimeout(timer);
  }, [enterPending, onEnterHandled]);

  function go(href: string) {
    onOpenChange(false);
    router.push(href);
  }

  const query = search.trim();
  const messageId = project && can("messages:read") && looksLikeMessageId(query) ? query : null;
  const messageSearch = project && can("messages:read") && !messageId && looksLikeMessageSearch(query) ? query : null;
  const screens = visibleProjectScreens(user);
  const admin = visibleAdminScreens(user);

  return (
    <CommandDialog
      open={open}
      onOpenChange={onOpenChange}
      onOpenAutoFocus={(event) => {
        // Radix focuses the input with its text selected: what was typed into the loading frame
        // would be replaced by the next key (a pasted id lost its first characters). Caret at the end.
        event.preventDefault();
        const input = inputRef.current;
        input?.focus();
        input?.setSelectionRange(input.value.length, input.value.length);
      }}
    >
      <CommandInput ref={inputRef} placeholder={PALETTE_PLACEHOLDER} value={search} onValueChange={onSearchChange} aria-label="Command" />
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
        {messageSearch && project && (
          <CommandGroup heading="Messages">
            <CommandItem value={`search-messages ${messageSearch}`} keywords={[messageSearch]} onSelect={() => go(`${projectHref(project.externalId, "messages")}?q=${encodeURIComponent(messageSearch)}`)}>
              <MailSearchIcon aria-hidden="true" />
              <span className="truncate">
                Search messages for <span className="font-mono">{messageSearch}</span>
              </span>
              <CommandShortcut>{project.name}</CommandShortcut>
            </CommandItem>
          </CommandGroup>
        )}
        {project && can("messages:read") && <SavedViewsPaletteGroup project={project.externalId} projectName={project.name} go={go} />}
        {project && <ScreenGroup heading={`Go to · ${project.name}`} screens={screens} hrefOf={(s) => projectHref(project.externalId, s.segment)} go={go} />}
        <ScreenGroup heading="Admin" screens={admin} extraWords={["admin"]} hrefOf={(s) => s.href} go={go} />
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
                onOpenChange(false);
              }}
            >
              <Icon aria-hidden="true" />
              {label}
            </CommandItem>
          ))}
        </CommandGroup>
      </CommandList>
      {!messageId && <PaletteTip projectName={project?.name} />}
    </CommandDialog>
  );
}

type Screen = { key: string; label: string; keywords?: string[]; icon: LucideIcon };

/** Screens to go to, found by their label, `extraWords` and their own keywords; nothing when there are none. */
function ScreenGroup<S extends Screen>({
  heading,
  screens,
  extraWords = [],
  hrefOf,
  go,
}: {
  heading: string;
  screens: S[];
  extraWords?: string[];
  hrefOf: (screen: S) => string;
  go: (href: string) => void;
}) {
  if (screens.length === 0) return null;
  return (
    <CommandGroup heading={heading}>
      {screens.map((s) => (
        <CommandItem key={s.key} value={[s.label, ...extraWords, s.keywords?.join(" ") ?? ""].join(" ")} onSelect={() => go(hrefOf(s))}>
          <s.icon aria-hidden="true" />
          {s.label}
        </CommandItem>
      ))}
    </CommandGroup>
  );
}

/**
 * Typed text that reads as a message search (a field term such as `to:` or `tag:`, a quoted
 * phrase, a negation or an address), offered as "Search messages"; plain words stay screen names.
 */
function looksLikeMessageSearch(text: string): boolean {
  if (!text) return false;
  const { terms } = parseSearchQuery(text);
  return terms.some((t) => t.field !== "text" || t.negated || t.phrase || t.value.includes("@"));
}
