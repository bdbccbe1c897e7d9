import type * as React from "react";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/**
 * A header cell: its text, or the text with classes and a tooltip. `hidden` keeps the text for
 * screen readers only (an actions column has no visible heading but still needs a name).
 */
export type ListColumn = string | { label: string; className?: string; title?: string; hidden?: boolean };

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
