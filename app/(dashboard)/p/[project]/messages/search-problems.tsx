import type { SearchProblem } from "@/lib/messages/search-query/terms";

/**
 * What the search left out and why, beside the box; the rest of the query ran. Polite live
 * region: a screen reader hears it once the results of the new query are in.
 */
export function SearchProblems({ problems }: { problems: SearchProblem[] }) {
  return (
    <div aria-live="polite" data-testid="search-problems">
      {problems.length > 0 && (
        <ul className="space-y-0.5 text-sm text-amber-700 dark:text-amber-400">
          {problems.map((p, i) => (
            <li key={`${i}-${p.term}`}>
              <span className="font-mono">{p.term}</span> was left out: {p.why}. For example: <code className="font-mono">{p.example}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
