"use client";

import { MESSAGE_STATUSES } from "@/lib/schemas/emails";
import type { ParamPatch } from "@/components/hooks/search-params";
import { SearchInput } from "@/components/common/search-input";
import { dayToIso, isoToDay } from "@/components/common/date-range";
import { statusStyle } from "@/components/common/status-styles";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { MessageFilters } from "./messages-params";

const ANY = "__any";

function FilterSelect({ label, value, onChange, options, anyLabel }: { label: string; value: string | undefined; onChange: (v: string | null) => void; options: { value: string; label: string }[]; anyLabel: string }) {
  return (
    <Select value={value ?? ANY} onValueChange={(v) => onChange(v === ANY ? null : v)}>
      <SelectTrigger className="w-36" aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ANY}>{anyLabel}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

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
      <div className="flex items-center gap-1.5">
        <Label htmlFor="messages-from" className="text-xs text-muted-foreground">
          From
        </Label>
        <Input
          id="messages-from"
          type="date"
          className="w-40"
          value={isoToDay(filters.from)}
          max={isoToDay(filters.to) || undefined}
          onChange={(e) => set({ from: e.target.value ? dayToIso(e.target.value, "start") : null })}
        />
        <Label htmlFor="messages-to" className="text-xs text-muted-foreground">
          to
        </Label>
        <Input
          id="messages-to"
          type="date"
          className="w-40"
          value={isoToDay(filters.to)}
          min={isoToDay(filters.from) || undefined}
          onChange={(e) => set({ to: e.target.value ? dayToIso(e.target.value, "end") : null })}
        />
      </div>
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
