"use client";

import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import type { ApiKeyListItem } from "@/lib/schemas/api-keys-form";
import { apiKeysQuery } from "@/lib/queries/api-keys";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CreateKeyDialog } from "@/components/keys/create-key-dialog";

/**
 * Keys created through the dashboard. The interface cannot list keys, so this is the
 * dashboard's own record — never the secret, which was shown once when the key was made.
 */
export function ApiKeysScreen({ project, projectName, initial }: { project: string; projectName: string; initial: ApiKeyListItem[] }) {
  const { data: keys = [], error, refetch, isRefetching } = useQuery({ ...apiKeysQuery(project), initialData: initial });
  const create = <CreateKeyDialog project={project} projectName={projectName} />;
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Keys your applications use to send mail. The secret is shown once, when the key is created; this list never shows it."
        actions={create}
      />
      {error && <ErrorState compact title="The list could not be refreshed" error={error} onRetry={() => refetch()} retrying={isRefetching} />}
      {keys.length === 0 ? (
        <EmptyState icon={KeyRoundIcon} title="No keys created here yet" description="Keys created through the dashboard for this project (and account-wide ones) appear here." action={create} />
      ) : (
        <Table label="API keys">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Reach</TableHead>
              <TableHead>Scopes</TableHead>
              <TableHead>Created by</TableHead>
              <TableHead>Created</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {keys.map((k) => (
              <TableRow key={k.id}>
                <TableCell>
                  <p className="font-medium">{k.name}</p>
                  <p className="font-mono text-xs text-muted-foreground">{k.id}</p>
                </TableCell>
                <TableCell>
                  {k.project ? (
                    <Badge variant="outline">This project</Badge>
                  ) : (
                    <Badge variant="outline" className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
                      Account-wide
                    </Badge>
                  )}
                </TableCell>
                <TableCell className="max-w-72">
                  <div className="flex flex-wrap gap-1">
                    {k.scopes.map((s) => (
                      <span key={s} className="rounded bg-muted px-1.5 py-0.5 font-mono text-[11px]">
                        {s}
                      </span>
                    ))}
                  </div>
                </TableCell>
                <TableCell className="text-sm">{k.createdByEmail}</TableCell>
                <TableCell>
                  <RelativeTime value={k.createdAt} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
