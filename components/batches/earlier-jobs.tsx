import { Link } from "@/components/common/link";
import type { JobView } from "@/lib/schemas/batch";

/** The jobs of a kind started before, newest first, each a link to its page (contact imports, suppressions in bulk). */
export function EarlierJobs({ title, jobs, href, untitled, done }: { title: string; jobs: JobView[]; href: (id: string) => string; untitled: string; done: string }) {
  if (!jobs.length) return null;
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      <ul className="divide-y rounded-md border text-sm">
        {jobs.map((j) => (
          <li key={j.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
            <Link className="underline-offset-4 hover:underline" href={href(j.id)}>
              {j.fileName ?? untitled}
            </Link>
            <span className="text-muted-foreground">
              {j.counts.sent.toLocaleString()} {done} · {j.status === "done" ? "finished" : "running"}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
