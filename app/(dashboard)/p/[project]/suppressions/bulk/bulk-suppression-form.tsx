"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { suppressionMutations } from "@/lib/queries/suppressions";
import { SUPPRESSION_REASONS } from "@/lib/schemas/words";
import type { JobView } from "@/lib/schemas/batch";
import { FileSource, type LoadedFile } from "@/components/batches/file-source";
import { EarlierJobs } from "@/components/batches/earlier-jobs";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { describeError } from "@/components/common/error-advice";
import { Button } from "@/components/ui/button";
import { NativeSelectField } from "@/components/ui/native-select-field";
import { FormError } from "@/components/ui/form-error";
import { BulkCheckResult } from "./bulk-check-result";

type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** List → its check → confirm (the interface cannot remove a suppression) → the job's page, which shows its progress and survives a reload. */
export function BulkSuppressionForm({ project, jobs }: { project: string; jobs: JobView[] }) {
  const router = useRouter();
  const [file, setFile] = React.useState<LoadedFile | null>(null);
  const [reason, setReason] = React.useState<SuppressionReason>("manual");
  const input = () => ({ csv: file!.text, fileName: file!.fileName ?? undefined, reason });
  const check = useMutation({ mutationFn: () => suppressionMutations.checkBulk(project, input()) });
  const start = useMutation({
    mutationFn: (confirmCount: number) => suppressionMutations.startBulk(project, { ...input(), confirmCount }),
    onSuccess: ({ id }) => router.push(`/p/${encodeURIComponent(project)}/suppressions/bulk/${id}`),
  });
  const checked = check.data;
  const toAdd = checked?.summary.toSend ?? 0;
  const failed = check.error ? describeError(check.error) : null;
  const changed = () => {
    check.reset();
    start.reset();
  };
  return (
    <div className="space-y-6">
      <FileSource
        loaded={file}
        placeholder={"ada@example.com\ngrace@example.com,complaint"}
        onLoaded={(f) => {
          setFile(f);
          changed();
        }}
      />
      <div className="flex flex-wrap items-end gap-3">
        <NativeSelectField
          id="bulk-reason"
          label="Reason for lines that name none"
          fill={false}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value as SuppressionReason);
            changed();
          }}
          choices={SUPPRESSION_REASONS.map((r) => ({ value: r, label: r }))}
        />
        <Button variant={checked ? "outline" : "default"} disabled={!file} pending={check.isPending} onClick={() => check.mutate()}>
          Check the list
        </Button>
      </div>
      <FormError message={failed?.message} correlationId={failed?.correlationId} />
      {checked && (
        <>
          <BulkCheckResult result={checked} />
          <ConfirmDialog
            title={`Add ${toAdd.toLocaleString()} suppressions?`}
            description={
              <>
                <p>Every send to these {toAdd.toLocaleString()} addresses will be rejected by the service.</p>
                <p className="mt-2 font-medium">The dashboard cannot remove a suppression: the service&apos;s interface has no way to remove one. Check the list before you go on.</p>
              </>
            }
            confirmLabel={`Add ${toAdd.toLocaleString()} suppressions`}
            onConfirm={() => start.mutateAsync(toAdd)}
            trigger={<Button disabled={toAdd === 0}>Add {toAdd.toLocaleString()} suppressions…</Button>}
          />
        </>
      )}
      <EarlierJobs title="Earlier lists" jobs={jobs} href={(id) => `/p/${encodeURIComponent(project)}/suppressions/bulk/${id}`} untitled="Pasted list" done="added" />
    </div>
  );
}
