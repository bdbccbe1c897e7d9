import type { Finding, FindingKind, Place, Severity } from "@/lib/schemas/presend";

/** One finding; its id is the rule and the place, so it is stable between two runs of the same draft. */
export function finding(
  kind: FindingKind,
  rule: string,
  severity: Severity,
  message: string,
  extra: Partial<Omit<Finding, "id" | "kind" | "rule" | "severity" | "message">> = {},
): Finding {
  const at = extra.place ? `@${extra.place.line}:${extra.place.column}` : "";
  return { id: `${rule}${at}`, kind, rule, severity, message, ...extra };
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then notes; within one severity, in source order. */
export function sortFindings(findings: Finding[]): Finding[] {
  const line = (p?: Place) => (p ? p.line * 1e6 + p.column : -1);
  return [...findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || line(a.place) - line(b.place) || a.id.localeCompare(b.id));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function formatKB(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
