"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useSearchParams } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookmarkIcon, BookmarkPlusIcon, PencilIcon, Share2Icon, Trash2Icon, UsersIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { SAVED_VIEW_PARAMS, type SavedView, type SavedViewState } from "@/lib/schemas/saved-views";
import { openView } from "@/lib/messages/saved-view-match";
import { savedViewHref, savedViewKeys, savedViewMutations, savedViewsQuery } from "@/lib/queries/saved-views";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { SaveViewDialog } from "./save-view-dialog";
import { RenameViewDialog } from "./rename-view-dialog";

/** The search in the URL now, as a view keeps it. */
function currentSearch(searchParams: URLSearchParams): SavedViewState {
  return Object.fromEntries(SAVED_VIEW_PARAMS.flatMap((k) => (searchParams.get(k)?.trim() ? [[k, searchParams.get(k)!.trim()]] : []))) as SavedViewState;
}

/**
 * The Views menu: the reader's views and the shared ones (each opens Messages with its search
 * in the URL), "Save current search…", and — when the search shown is a view the reader may
 * change — rename, share or stop sharing, and delete it.
 */
export function SavedViewsMenu({ project, open, onOpenChange, trigger }: { project: string } & LazyDialogProps) {
  const [dialog, setDialog] = React.useState<"save" | "rename" | "delete" | null>(null);
  const queryClient = useQueryClient();
  const views = useQuery(savedViewsQuery(project));
  const searchParams = useSearchParams();
  const state = React.useMemo(() => currentSearch(searchParams), [searchParams]);
  // The open search is a view however its URL spells it (order, encoding, spaces): by its parameters.
  const current = openView(views.data, searchParams);
  const mine = views.data?.filter((v) => v.mine) ?? [];
  const shared = views.data?.filter((v) => !v.mine) ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: savedViewKeys.all(project) });

  const share = useMutation({
    mutationFn: (view: SavedView) => savedViewMutations.update(project, view.id, { shared: !view.shared }),
    onSuccess: async (view) => {
      toast.success(view.shared ? "View shared" : "View made private", {
        description: view.shared ? `Everyone who can open this project sees “${view.name}”.` : `Only you see “${view.name}”.`,
      });
      await refresh();
    },
    onError: (e) => toast.error("The view could not be changed", { description: e.message }),
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => savedViewMutations.remove(project, view.id),
    onSuccess: async () => {
      toast.success("View deleted");
      await refresh();
    },
  });

  return (
    <>
      <DropdownMenu open={open} onOpenChange={onOpenChange}>
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-72 max-w-[calc(100vw-2rem)]">
          {views.isPending && <DropdownMenuLabel className="font-normal text-muted-foreground">Loading views…</DropdownMenuLabel>}
          {views.isError && <DropdownMenuLabel className="font-normal text-destructive">The views could not be loaded: {views.error.message}</DropdownMenuLabel>}
          {views.data && views.data.length === 0 && (
            <DropdownMenuLabel className="font-normal text-muted-foreground">No saved views yet. Search, then save it here.</DropdownMenuLabel>
          )}
          <ViewGroup heading="Your views" views={mine} project={project} />
          <ViewGroup heading="Shared with the project" views={shared} project={project} />
          {views.data && views.data.length > 0 && <DropdownMenuSeparator />}
          <DropdownMenuItem onSelect={() => setDialog("save")}>
            <BookmarkPlusIcon aria-hidden="true" />
            Save current search…
          </DropdownMenuItem>
          {current && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuLabel className="truncate text-xs text-muted-foreground">This view: {current.name}</DropdownMenuLabel>
              <DropdownMenuItem onSelect={() => setDialog("rename")}>
                <PencilIcon aria-hidden="true" />
                Rename…
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => share.mutate(current)} disabled={share.isPending}>
                <Share2Icon aria-hidden="true" />
                {current.shared ? "Stop sharing" : "Share with the project"}
              </DropdownMenuItem>
              <DropdownMenuItem variant="destructive" onSelect={() => setDialog("delete")}>
                <Trash2Icon aria-hidden="true" />
                Delete…
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <SaveViewDialog project={project} state={state} open={dialog === "save"} onOpenChange={(o) => setDialog(o ? "save" : null)} />
      {current && (
        <>
          <RenameViewDialog project={project} view={current} open={dialog === "rename"} onOpenChange={(o) => setDialog(o ? "rename" : null)} />
          <ConfirmDialog
            open={dialog === "delete"}
            onOpenChange={(o) => setDialog(o ? "delete" : null)}
            title={`Delete view “${current.name}”?`}
            description={
              <p>
                {current.shared ? "Everyone in the project loses this saved search." : "Your saved search goes."} The messages themselves are not touched.
              </p>
            }
            confirmLabel="Delete view"
            onConfirm={() => remove.mutateAsync(current)}
          />
        </>
      )}
    </>
  );
}

function ViewGroup({ heading, views, project }: { heading: string; views: SavedView[]; project: string }) {
  if (views.length === 0) return null;
  return (
    <>
      <DropdownMenuLabel className="text-xs text-muted-foreground">{heading}</DropdownMenuLabel>
      {views.map((v) => (
        <DropdownMenuItem key={v.id} asChild>
          <Link href={savedViewHref(project, v.query)} title={v.mine ? undefined : `Shared by ${v.owner}`}>
            {v.shared ? <UsersIcon aria-hidden="true" /> : <BookmarkIcon aria-hidden="true" />}
            <span className="truncate">{v.name}</span>
            {v.shared && v.mine && <span className="sr-only"> (shared)</span>}
          </Link>
        </DropdownMenuItem>
      ))}
    </>
  );
}
