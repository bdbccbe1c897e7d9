"use client";

import * as React from "react";
import { CORE_AUDIT_ACTIONS } from "@/lib/schemas/words";
import type { ParamPatch } from "@/components/hooks/search-params";
import { SearchInput } from "@/components/common/search-input";
import { DateRangeFilter, FilterSelect } from "@/components/common/filters";
import type { AuditFilters } from "./audit-params";

export type UserOption = { id: string; label: string };
export type ProjectOption = { externalId: string; name: string };

/** Text, action, user, project, outcome and a date range; each change is a new URL. */
export function AuditFiltersBar({
  filters,
  users,
  projects,
  knownActions,
  set,
}: {
  filters: AuditFilters;
  users: UserOption[];
  projects: ProjectOption[];
  knownActions: string[];
  set: (patch: ParamPatch) => void;
}) {
  const actions = React.useMemo(() => {
    const all = new Set<string>([...CORE_AUDIT_ACTIONS, ...knownActions, ...(filters.action ? [filters.action] : [])]);
    return [...all].sort().map((a) => ({ value: a, label: a }));
  }, [knownActions, filters.action]);

  return (
    <div className="flex flex-wrap items-end gap-2">
      <SearchInput placeholder="Search actor, target, detail…" label="Search the audit log" className="max-w-xs" />
      <FilterSelect label="Action" value={filters.action} onChange={(v) => set({ action: v })} options={actions} anyLabel="Any action" className="w-44" />
      <FilterSelect label="User" value={filters.user} onChange={(v) => set({ user: v })} options={users.map((u) => ({ value: u.id, label: u.label }))} anyLabel="Any user" className="w-44" />
      <FilterSelect
        label="Project"
        value={filters.project}
        onChange={(v) => set({ project: v })}
        options={projects.map((p) => ({ value: p.externalId, label: p.name }))}
        anyLabel="Any project"
        className="w-40"
      />
      <FilterSelect
        label="Outcome"
        value={filters.outcome}
        onChange={(v) => set({ outcome: v })}
        options={[
          { value: "success", label: "Success" },
          { value: "failure", label: "Failure" },
        ]}
        anyLabel="Any outcome"
        className="w-36"
      />
      <DateRangeFilter idPrefix="audit" from={filters.from} to={filters.to} onChange={set} />
    </div>
  );
}
