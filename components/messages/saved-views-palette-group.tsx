"use client";

import { useQuery } from "@tanstack/react-query";
import { BookmarkIcon, UsersIcon } from "lucide-react";
import { CommandGroup, CommandItem, CommandShortcut } from "@/components/ui/command";
import { savedViewHref, savedViewsQuery } from "@/lib/queries/saved-views";

/**
 * Ctrl+K's saved views of the current project (issue 28): the reader's and the shared ones,
 * found by name; choosing one opens Messages with its search. Read when the palette opens;
 * a failed read leaves the group out rather than the palette.
 */
export function SavedViewsPaletteGroup({ project, projectName, go }: { project: string; projectName: string; go: (href: string) => void }) {
  const views = useQuery(savedViewsQuery(project));
  if (!views.data?.length) return null;
  return (
    <CommandGroup heading="Saved views">
      {views.data.map((v) => (
        <CommandItem key={v.id} value={`saved-view ${v.id} ${v.name}`} keywords={["view", "saved", v.name]} onSelect={() => go(savedViewHref(project, v.query))}>
          {v.shared ? <UsersIcon aria-hidden="true" /> : <BookmarkIcon aria-hidden="true" />}
          <span className="truncate">{v.name}</span>
          <CommandShortcut>{projectName}</CommandShortcut>
        </CommandItem>
      ))}
    </CommandGroup>
  );
}
