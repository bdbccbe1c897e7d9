"use client";

import { useQuery } from "@tanstack/react-query";
import { UsersIcon } from "lucide-react";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/permissions";
import type { UserView } from "@/lib/schemas/users";
import { usersQuery } from "@/lib/queries/users";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { SearchInput } from "@/components/common/search-input";
import { RelativeTime } from "@/components/common/relative-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/common/filter-select";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { useUrlState } from "@/components/hooks/use-url-state";
import { CreateUserDialog } from "./create-user-dialog";
import { TwoFactorPolicyDialog } from "./two-factor-policy-dialog";
import { UserActions } from "./user-actions";
import { ProjectAccessSummary } from "./project-access-summary";
import type { ProjectOption } from "./user-projects-dialog";

const ALL = "all";

function matches(user: UserView, q: string, role: string, status: string): boolean {
  if (role !== ALL && user.role !== role) return false;
  if (status === "active" && !user.active) return false;
  if (status === "disabled" && user.active) return false;
  if (!q) return true;
  const needle = q.toLowerCase();
  return user.email.toLowerCase().includes(needle) || (user.name ?? "").toLowerCase().includes(needle);
}

/** Who can sign in, with which role, to which projects. Filters live in the URL. */
export function UsersScreen({ initialUsers, projects, currentUserId }: { initialUsers: UserView[]; projects: ProjectOption[]; currentUserId: string }) {
  const { data: users = [], error, refetch, isRefetching } = useQuery({ ...usersQuery(), initialData: initialUsers });
  const { get, set } = useUrlState();
  const q = get("q") ?? "";
  const role = ROLES.includes(get("role") as Role) ? (get("role") as string) : ALL;
  const status = ["active", "disabled"].includes(get("status") ?? "") ? (get("status") as string) : ALL;
  const shown = users.filter((u) => matches(u, q, role, status));
  const filtered = q !== "" || role !== ALL || status !== ALL;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Users"
        description="People who can sign in to the dashboard. The role decides what they may do; project access decides where."
        actions={
          <div className="flex flex-wrap gap-2">
            <TwoFactorPolicyDialog />
            <CreateUserDialog projects={projects} />
          </div>
        }
      />
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput placeholder="Search by name or email" label="Search users" />
        <FilterSelect
          label="Filter by role"
          className="w-40"
          value={role === ALL ? undefined : role}
          onChange={(v) => set({ role: v })}
          anyLabel="All roles"
          options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        />
        <FilterSelect
          label="Filter by status"
          className="w-40"
          value={status === ALL ? undefined : status}
          onChange={(v) => set({ status: v })}
          anyLabel="Any status"
          options={[
            { value: "active", label: "Active" },
            { value: "disabled", label: "Disabled" },
          ]}
        />
        <p className="ml-auto text-sm text-muted-foreground" aria-live="polite">
          {shown.length === users.length ? `${users.length} ${users.length === 1 ? "user" : "users"}` : `${shown.length} of ${users.length} users`}
        </p>
      </div>
      {error && <ErrorState compact title="The list could not be refreshed" error={error} onRetry={() => refetch()} retrying={isRefetching} />}
      {shown.length === 0 ? (
        <EmptyState
          icon={UsersIcon}
          title={filtered ? "No user matches these filters" : "No users yet"}
          description={filtered ? "Change the search or the filters to see more people." : "People you create appear here with their role and project access."}
          action={
            filtered ? (
              <Button variant="outline" onClick={() => set({ q: null, role: null, status: null })}>
                Clear filters
              </Button>
            ) : (
              <CreateUserDialog projects={projects} />
            )
          }
        />
      ) : (
        <ListTable label="Users" columns={["Name", "Role", "Status", "Projects", "Last sign-in", "Sessions", { label: "Actions", className: "w-12", hidden: true }]}>
          {shown.map((u) => (
            <TableRow key={u.id} data-state={u.active ? undefined : "disabled"} className="data-[state=disabled]:text-muted-foreground">
              <TableCell>
                <div className="min-w-0">
                  <p className="truncate font-medium text-foreground">
                    {u.name ?? u.email}
                    {u.id === currentUserId && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
                  </p>
                  {u.name && <p className="truncate text-xs text-muted-foreground">{u.email}</p>}
                </div>
              </TableCell>
              <TableCell>
                <Badge variant="outline">{ROLE_LABELS[u.role]}</Badge>
              </TableCell>
              <TableCell>
                {u.active ? (
                  <Badge variant="outline" className="border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                    Active
                  </Badge>
                ) : (
                  <Badge variant="outline" className="border-slate-300 bg-slate-100 text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200">
                    Disabled
                  </Badge>
                )}
              </TableCell>
              <TableCell className="max-w-64">
                <ProjectAccessSummary user={u} projects={projects} />
              </TableCell>
              <TableCell>
                <RelativeTime value={u.lastSignInAt} fallback="Never" />
              </TableCell>
              <TableCell className="text-sm" data-sessions={u.activeSessions}>
                {u.activeSessions === 0 ? <span className="text-muted-foreground">None</span> : `${u.activeSessions} active`}
              </TableCell>
              <TableCell className="text-right">
                <UserActions user={u} projects={projects} isSelf={u.id === currentUserId} />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
    </div>
  );
}
