"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { domainInput, normalizeHostname, type DomainInput } from "@/lib/domains/hostname";
import { domainKeys, domainMutations } from "@/lib/queries/domains";
import { TextField } from "@/components/common/text-field";
import { projectHref } from "@/lib/nav";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const FIELDS = ["domain"] as const;

/** Add a sending domain: checked as typed, internationalised names shown as they will be sent. */
export default function AddDomainDialogForm({ project, ...lazy }: { project: string } & LazyDialogProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<DomainInput, unknown, { domain: string }>({ resolver: zodResolver(domainInput), defaultValues: { domain: "" }, mode: "onChange" });
  const typed = form.watch("domain");
  const normalized = typed ? normalizeHostname(typed) : null;

  const { dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (v: { domain: string }) => domainMutations.add(project, v.domain),
    onSuccess: async (d) => {
      toast.success("Domain added", { description: `Publish the records for ${d.domain} in your DNS panel.` });
      await queryClient.invalidateQueries({ queryKey: domainKeys.all(project) });
      router.push(`${projectHref(project, "domains")}/${encodeURIComponent(d.id)}`);
    },
  });

  return (
    <FormDialog
      {...dialog}
      title="Add a domain"
      description="The domain (or subdomain) your mail is sent from. You will get the DNS records to publish next."
      submitLabel="Add domain"
    >
      <TextField
        control={form.control}
        name="domain"
        label="Domain"
        spellCheck={false}
        placeholder="mail.example.com"
        description={
          normalized?.ok &&
          normalized.ascii !== typed.trim().toLowerCase().replace(/\.$/, "") && (
            <>
              Will be added as <span className="font-mono">{normalized.ascii}</span> (the form DNS uses).
            </>
          )
        }
      />
    </FormDialog>
  );
}
