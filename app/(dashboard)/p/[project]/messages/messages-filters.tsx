"use client";

import { MESSAGE_STATUSES } from "@/lib/messages/vocabulary";
import type { ParamPatch } from "@/components/hooks/search-params";
import { SearchInput } from "@/components/common/search-input";
import { DateRangeFilter, FilterSelect } from "@/components/common/filters";
import { statusStyle } from "@/components/common/status-styles";
import { Input } from "@/components/ui/input";
import type { MessageFilters } from "./messages-params";

/** Search first, then status, direction, tag and a date range; each change is a new URL. */
export function MessagesFilters({ filters, set }: { filters: MessageFilters; set: (patch: ParamPatch) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SearchInput placeholder="Recipient, sender, subject or message id" label="Search messages" className="max-w-sm" />
      <FilterSelect
        label="Status"
        value={filters.status}
        onChange={(v) => set({ status: v })}
        options={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusStyle(s).label }))}
        anyLabel="Any status"
      />
      <FilterSelect
        label="Direction"
        value={filters.direction}
        onChange={(v) => set({ direction: v })}
        options={[
          { value: "outbound", label: "Outbound" },
          { value: "inbound", label: "Inbound" },
        ]}
        anyLabel="Both directions"
      />
      <TagInput value={filters.tag} onCommit={(tag) => set({ tag })} />
      <DateRangeFilter idPrefix="messages" from={filters.from} to={filters.to} onChange={set} />
    </div>
  );
}

/** Applied on Enter or leaving the field, so a half-typed tag does not search. */
function TagInput({ value, onCommit }: { value: string | undefined; onCommit: (tag: string | null) => void }) {
  return (
    <Input
      key={value ?? ""}
      defaultValue={value ?? ""}
      aria-label="Tag (name or name:value)"
      placeholder="Tag, e.g. kind:welcome"
      className="w-44"
      onKeyDown={(e) => {
        if (e.key === "Enter") onCommit(e.currentTarget.value.trim() || null);
      }}
      onBlur={(e) => {
        const next = e.currentTarget.value.trim() || null;
        if (next !== (value ?? null)) onCommit(next);
      }}
    />
  );
}
