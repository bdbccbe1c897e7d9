"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { suggestMapping, type SuggestedMapping } from "@/lib/batch/mapping";
import { batchMutations } from "@/lib/queries/batches";
import type { JobView } from "@/lib/schemas/batch";
import { FileSource, type LoadedFile } from "@/components/batches/file-source";
import { MappingFields } from "@/components/batches/mapping-fields";
import { EarlierJobs } from "@/components/batches/earlier-jobs";
import { describeError } from "@/components/common/error-advice";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";

/** File → columns (other columns become metadata) → the import job. */
export function ImportForm({ project, jobs }: { project: string; jobs: JobView[] }) {
  const router = useRouter();
  const [file, setFile] = React.useState<LoadedFile | null>(null);
  const [mapping, setMapping] = React.useState<SuggestedMapping | null>(null);
  const [subscribed, setSubscribed] = React.useState(true);
  const start = useMutation({
    mutationFn: () => {
      const mapped = new Set([mapping!.email, mapping!.name, mapping!.firstName, mapping!.lastName]);
      const variables = Object.fromEntries(Object.entries(mapping!.variables).filter(([h]) => !mapped.has(h)));
      return batchMutations.importContacts(project, { csv: file!.text, fileName: file!.fileName ?? undefined, mapping: { ...mapping!, email: mapping!.email ?? "", variables }, subscribed });
    },
    onSuccess: ({ id }) => router.push(`/p/${encodeURIComponent(project)}/contacts/import/${id}`),
  });
  const failed = start.error ? describeError(start.error) : null;
  return (
    <div className="space-y-6">
      <FileSource loaded={file} onLoaded={(f) => { setFile(f); setMapping(f ? suggestMapping(f.parsed.headers, { rows: f.parsed.rows }) : null); }} />
      {file && mapping && <MappingFields headers={file.parsed.headers} mapping={mapping} onChange={setMapping} />}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} /> Import as subscribed
      </label>
      <FormError message={failed?.message} correlationId={failed?.correlationId} />
      <Button disabled={!file || !mapping?.email} pending={start.isPending} onClick={() => start.mutate()}>
        Import {file ? file.parsed.rows.length.toLocaleString() : ""} contacts
      </Button>
      <EarlierJobs title="Earlier imports" jobs={jobs} href={(id) => `/p/${encodeURIComponent(project)}/contacts/import/${id}`} untitled="Pasted rows" done="created" />
    </div>
  );
}
