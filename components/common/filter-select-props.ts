/** The props of FilterSelect, in a file of their own: its lazily loaded menu (filter-select-menu.tsx) takes them too, without importing filter-select.tsx back. */
export type FilterSelectProps = {
  label: string;
  value: string | undefined;
  onChange: (v: string | null) => void;
  options: { value: string; label: string }[];
  anyLabel: string;
  className?: string;
};
