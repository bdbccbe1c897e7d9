"use client";

import { useQuery } from "@tanstack/react-query";
import { InfoIcon, KeyRoundIcon } from "lucide-react";
import type { ApiKeyList, KeyRevokeSupport } from "@/lib/schemas/api-keys-form";
import { apiKeysQuery } from "@/lib/queries/api-keys";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { Badge } from "@/components/ui/badge";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { CreateKeyDialog } from "./create-key-dialog";
import { RevokeKeyButton } from "./revoke-key-button";

const REVOKE_NOTE: Record<KeyRevokeSupport, string> = {
  unknown:
    "Revoking is not part of the email service's standard interface. The bundled local service offers it; with another service, a key made here may have to be revoked in the provider's own console.",
  supported: "Revoking a key here stops it at the email service at once.",
  unsupported:
    "This email service does not offer revoking keys through its API, so keys made here cannot be revoked from the dashboard: revoke them in the provider's own console.",
};

/**
 * Keys created through the dashboard. The interface cannot list keys, so this is the
 * dashboard's own record — never the secret, which was shown once when the key was made.
 */
export function ApiKeysScreen({ project, projectName, initial }: { project: string; projectName: string; initial: ApiKeyList }) {
  const { data = initial, error, refetch, isRefetching } = useQuery({ ...apiKeysQuery(project), initialData: initial });
  const keys = data.data;
  const create = <CreateKeyDialog project={project} projectName={projectName} />;
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Keys your applications use to send mail. The secret is shown once, when the key is created; this list never shows it."
        actions={create}
      />
      <p role="note" data-revoke-support={data.revoke} className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
        <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {REVOKE_NOTE[data.revoke]}
      </p>
      {error && <ErrorState compact title="The list could not be refreshed" error={error} onRetry={() => refetch()} retrying={isRefetching} />}
      {keys.length === 0 ? (
        <EmptyState icon={KeyRoundIcon} title="No keys created here yet" description="Keys created through the dashboard for this project (and account-wide ones) appear here." action={create} />
      ) : (
        <ListTable label="API keys" columns={["Name", "Reach", "Scopes", "Created by", "Created", "Status", { label: "Actions", className: "w-28", hidden: true }]}>
          {keys.map((k) => (
            <TableRow key={k.id} data-key-id={k.id} data-state={k.revokedAt ? "disabled" : undefined} className="data-[state=disabled]:text-muted-foreground">
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
              <TableCell>
                {k.revokedAt ? (
                  <span className="text-sm">
                    <Badge variant="outline" className="border-slate-300 bg-slate-100 text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200">
                      Revoked
                    </Badge>{" "}
                    <RelativeTime value={k.revokedAt} />
                  </span>
                ) : (
                  <Badge variant="outline" className="border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                    Active
                  </Badge>
                )}
              </TableCell>
              <TableCell className="text-right">{!k.revokedAt && <RevokeKeyButton project={project} apiKey={k} support={data.revoke} />}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
    </div>
  );
}
