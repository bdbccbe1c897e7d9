"use client";

import * as React from "react";
import { usePathname, useRouter } from "next/navigation";
import { CheckIcon, SettingsIcon } from "lucide-react";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";
import { switchProjectPath } from "@/components/shell/nav";

/** The project list with a filter, loaded on first use (project-switcher.tsx). */
export function ProjectSwitcherMenu({ open, onOpenChange: setOpen, trigger }: { open: boolean; onOpenChange: (open: boolean) => void; trigger: React.ReactElement }) {
  const router = useRouter();
  const pathname = usePathname();
  const { projects, can } = useShell();
  const { project, inUrl } = useCurrentProject();

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
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
