"use client";

import { Link } from "@/components/common/link";
import { useQuery } from "@tanstack/react-query";
import { ContactIcon, UploadIcon } from "lucide-react";
import { contactSearchQuery } from "@/lib/queries/contacts";
import type { IndexedContactView } from "@/lib/schemas/contacts-form";
import { useUrlState } from "@/components/hooks/use-url-state";
import { PageHeader } from "@/components/common/page-header";
import { SearchInput } from "@/components/common/search-input";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { SubscriptionBadge } from "@/components/contacts/subscription-badge";
import { CursorPager } from "@/components/common/cursor-pager";
import { Button } from "@/components/ui/button";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { ExportMenu } from "@/components/export/export-menu";
import { CreateContactDialog } from "./create-contact-dialog";
import { LookupForm } from "./lookup-form";

/**
 * The interface cannot list contacts, so this table is the dashboard's own index: every
 * contact it created, imported or looked up. Look-up by id reaches any other contact.
 */
export function ContactsScreen({ project, initial, canWrite }: { project: string; initial: { data: IndexedContactView[]; total: number }; canWrite: boolean }) {
  const { get, set } = useUrlState();
  const q = get("q") ?? "";
  const page = Math.max(1, Number(get("page")) || 1);
  const { data = initial, error, refetch } = useQuery({ ...contactSearchQuery(project, q, page), initialData: page === 1 ? initial : undefined });
  const href = (id: string) => `/p/${encodeURIComponent(project)}/contacts/${encodeURIComponent(id)}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Contacts"
        description="People you can mail, with their subscription state. The list holds the contacts this dashboard created, imported or looked up."
        actions={
          canWrite ? (
            <>
              <ExportMenu path={`/api/p/${encodeURIComponent(project)}/contacts/export`} query={{ q }} />
              <Button variant="outline" asChild>
                <Link href={`/p/${encodeURIComponent(project)}/contacts/import`}>
                  <UploadIcon aria-hidden="true" />
                  Import CSV
                </Link>
              </Button>
              <CreateContactDialog project={project} />
            </>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">Your role can view contacts but not change them.</p>
              <ExportMenu path={`/api/p/${encodeURIComponent(project)}/contacts/export`} query={{ q }} />
            </>
          )
        }
      />
      <LookupForm project={project} />
      <div className="flex items-center gap-2">
        <SearchInput placeholder="Search by address or name" label="Search contacts" />
        <p className="ml-auto text-sm text-muted-foreground" aria-live="polite">
          {data.total} {data.total === 1 ? "contact" : "contacts"}
        </p>
      </div>
      {error && <ErrorState compact error={error} onRetry={() => refetch()} />}
      {data.data.length === 0 ? (
        <EmptyState
          icon={ContactIcon}
          title={q ? "No contact matches this search" : "No contacts known yet"}
          description={q ? "Try another address or name, or look the contact up by id." : "Contacts you create, import or look up appear here."}
          action={canWrite && !q ? <CreateContactDialog project={project} /> : undefined}
        />
      ) : (
        <ListTable label="Contacts" columns={["Email", "Name", "Subscription", "Known from", "Last seen"]}>
          {data.data.map((c) => (
            <TableRow key={c.id}>
              <TableCell>
                <Link href={href(c.id)} className="font-medium underline-offset-4 hover:underline">
                  {c.email}
                </Link>
              </TableCell>
              <TableCell>{[c.firstName, c.lastName].filter(Boolean).join(" ") || "—"}</TableCell>
              <TableCell>
                <SubscriptionBadge subscribed={c.subscribed} />
              </TableCell>
              <TableCell className="text-muted-foreground">{c.source}</TableCell>
              <TableCell>
                <RelativeTime value={c.seenAt} />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      <CursorPager
        label="Pages"
        className="justify-start"
        back="Previous"
        next="Next"
        onBack={page > 1 ? () => set({ page: page === 2 ? null : String(page - 1) }) : undefined}
        onNext={page * 50 < data.total ? () => set({ page: String(page + 1) }) : undefined}
      />
    </div>
  );
}
