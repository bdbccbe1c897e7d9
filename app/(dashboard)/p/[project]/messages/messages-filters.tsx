"use client";

import * as React from "react";
import { MESSAGE_STATUSES } from "@/lib/messages/vocabulary";
import { parseSearchQuery } from "@/lib/messages/search-query/parse";
import { controlsOf, withControl, type SearchControls } from "@/lib/messages/search-query/format";
import type { SearchProblem } from "@/lib/messages/search-query/terms";
import type { ParamPatch } from "@/components/hooks/search-params";
import { SearchInput } from "@/components/common/search-input";
import { DateRangeFilter, FilterSelect } from "@/components/common/filters";
import { statusStyle } from "@/components/common/status-styles";
import { Input } from "@/components/ui/input";
import type { MessageFilters } from "./messages-params";
import { SearchHelpButton } from "./search-help-button";
import { SearchProblems } from "./search-problems";

/** The control's older URL parameter, still read from a pasted link (and cleared once the control writes into `q`). */
const LEGACY_PARAM: Record<keyof SearchControls, keyof MessageFilters> = { status: "status", direction: "direction", tag: "tag", after: "from", before: "to" };

/**
 * The search box first, then status, direction, tag and a date range. The query (`?q=`) is the
 * one truth: each control shows its term of the query and writes its change into it
 * (lib/messages/search-query/format.ts), so the box and the controls always agree.
 */
export function MessagesFilters({
  filters,
  set,
  q,
  problems,
  beside,
}: {
  filters: MessageFilters;
  set: (patch: ParamPatch) => void;
  q: string;
  problems: SearchProblem[];
  /** Shown right after the search box and its help (the saved views' menu). */
  beside?: React.ReactNode;
}) {
  const controls = React.useMemo(() => controlsOf(parseSearchQuery(q).terms), [q]);
  const shown = (c: keyof SearchControls) => controls[c] ?? filters[LEGACY_PARAM[c]];
  const change = (patch: Partial<Record<keyof SearchControls, string | null>>) => {
    let next = q;
    const cleared: ParamPatch = {};
    for (const [control, value] of Object.entries(patch) as [keyof SearchControls, string | null][]) {
      next = withControl(next, control, value);
      cleared[LEGACY_PARAM[control]] = null;
    }
    set({ ...cleared, q: next || null });
  };
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex w-full max-w-xl items-center gap-1">
          <SearchInput placeholder='e.g. to:ada@example.com tag:plan=pro -status:delivered "order shipped"' label="Search messages" className="max-w-none min-w-0 flex-1" />
          <SearchHelpButton />
          {beside}
        </div>
        <FilterSelect
          label="Status"
          value={shown("status")}
          onChange={(v) => change({ status: v })}
          options={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusStyle(s).label }))}
          anyLabel="Any status"
        />
        <FilterSelect
          label="Direction"
          value={shown("direction")}
          onChange={(v) => change({ direction: v })}
          options={[
            { value: "outbound", label: "Outbound" },
            { value: "inbound", label: "Inbound" },
          ]}
          anyLabel="Both directions"
        />
        <TagInput value={shown("tag")} onCommit={(tag) => change({ tag })} />
        <DateRangeFilter
          idPrefix="messages"
          from={shown("after")}
          to={shown("before")}
          onChange={(patch) => change({ ...("from" in patch ? { after: patch.from ?? null } : {}), ...("to" in patch ? { before: patch.to ?? null } : {}) })}
        />
      </div>
      <SearchProblems problems={problems} />
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
