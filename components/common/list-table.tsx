import type * as React from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/**
 * A header cell: its text, or the text with classes and a tooltip. `hidden` keeps the text for
 * screen readers only (an actions column has no visible heading but still needs a name).
 */
export type ListColumn = string | { label: string; className?: string; title?: string; hidden?: boolean };

/** A column of counts: heading and cells align right so the digits line up. */
export function numberColumn(label: string, title?: string): ListColumn {
  return { label, className: "text-right", title };
}

/** Several count columns in a row, by their headings. */
export function numberColumns(...labels: string[]): ListColumn[] {
  return labels.map((label) => numberColumn(label));
}

/** A count in a `numberColumn`, named by `data-metric` so tests and styles can find it. */
export function CountCell({ metric, value }: { metric: string; value: number }) {
  return (
    <TableCell className="text-right tabular-nums" data-metric={metric}>
      {value.toLocaleString()}
    </TableCell>
  );
}

function ColumnHead({ column }: { column: ListColumn }) {
  const { label, className, title, hidden } = typeof column === "string" ? { label: column } : column;
  return (
    <TableHead className={className} title={title}>
      {hidden ? <span className="sr-only">{label}</span> : label}
    </TableHead>
  );
}

/**
 * The list screens' table: a labelled scroll region, one header row from `columns`, and the
 * rows the screen renders itself (`children`, usually `TableRow`s of `TableCell`s).
 */
export function ListTable({
  label,
  columns,
  caption,
  containerClassName,
  children,
}: {
  label: string;
  columns: ListColumn[];
  caption?: React.ReactNode;
  containerClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Table label={label} containerClassName={containerClassName}>
      {caption}
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <ColumnHead key={typeof column === "string" ? column : column.label} column={column} />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>{children}</TableBody>
    </Table>
  );
}
