"use client";

import * as React from "react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { CheckIcon, ChevronsUpDownIcon, FolderKanbanIcon, SettingsIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";
import { switchProjectPath } from "@/components/shell/nav";

/** The project list with a filter; picking one opens the same screen in that project. */
export function ProjectSwitcher() {
  const [open, setOpen] = React.useState(false);
  const router = useRouter();
  const pathname = usePathname();
  const { projects, can } = useShell();
  const { project, inUrl } = useCurrentProject();

  if (projects.length === 0) {
    return can("projects:manage") ? (
      <Button asChild variant="outline" size="sm">
        <Link href="/admin/projects">
          <FolderKanbanIcon aria-hidden="true" />
          Register a project
        </Link>
      </Button>
    ) : (
      <span className="text-sm text-muted-foreground">No project access</span>
    );
  }

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" role="combobox" aria-expanded={open} aria-label={`Project: ${project?.name ?? "none"}. Switch project`} className="max-w-64 justify-between gap-2">
          <FolderKanbanIcon className="text-muted-foreground" aria-hidden="true" />
          <span className="truncate">{inUrl || project ? project?.name : "Choose a project"}</span>
          <ChevronsUpDownIcon className="opacity-60" aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-72 p-0" align="start" aria-label="Switch project">
        <Command label="Switch project">
          {projects.length > 6 && <CommandInput placeholder="Find a project…" aria-label="Find a project" />}
          <CommandList>
            <CommandEmpty>No project matches.</CommandEmpty>
            <CommandGroup heading="Projects">
              {projects.map((p) => (
                <CommandItem
                  key={p.id}
                  value={`${p.name} ${p.externalId}`}
                  onSelect={() => {
                    setOpen(false);
                    router.push(switchProjectPath(pathname, p.externalId));
                  }}
                >
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate">{p.name}</span>
                    <span className="truncate font-mono text-xs text-muted-foreground">{p.externalId}</span>
                  </span>
                  {p.externalId === project?.externalId && inUrl && <CheckIcon className="size-4" aria-label="Current project" />}
                </CommandItem>
              ))}
            </CommandGroup>
            {can("projects:manage") && (
              <>
                <CommandSeparator />
                <CommandGroup>
                  <CommandItem
                    value="manage projects"
                    onSelect={() => {
                      setOpen(false);
                      router.push("/admin/projects");
                    }}
                  >
                    <SettingsIcon aria-hidden="true" />
                    Manage projects
                  </CommandItem>
                </CommandGroup>
              </>
            )}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
