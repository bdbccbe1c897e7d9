import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dmarcTags, flagSource, policyAdvice, ruaCarries } from "@/lib/dmarc/advice";
import { DMARC_VIEW_DAYS, DMARC_VIEW_SOURCES, type DmarcView } from "@/lib/schemas/dmarc";
import { db } from "@/lib/server/db";
import { getDomainDetail } from "@/lib/server/domains/manage";
import type { Project } from "@/lib/server/gate/access";
import { publishedDmarc } from "./published";
import { ruaDomain } from "./rua";

/**
 * The DMARC view of one domain: the stored reports of the last DMARC_VIEW_DAYS days (by the
 * reports' own date range), per day and per source, with the words of lib/dmarc/advice.ts,
 * the rua address to publish, and the report mails a cap kept out. Four bounded statements on indexed columns; the sources
 * are the DMARC_VIEW_SOURCES that sent most.
 */
export async function getDmarcView(project: Project, id: string): Promise<DmarcView> {
  const detail = await getDomainDetail(project, id);
  const domain = detail.domain.domain.toLowerCase();
  const d = await db();
  const since = new Date(Date.now() - DMARC_VIEW_DAYS * 86_400_000).toISOString();
  const scope = sql`r.project_id = ${project.id} and r.domain = ${domain} and r.begin_at >= ${since}`;
  const [totals, daily, sources, skipped, published] = await Promise.all([
    d.execute(sql`
      select count(distinct r.id)::int as reports, coalesce(sum(x.count), 0)::bigint as messages,
             coalesce(sum(x.count) filter (where x.dkim_aligned or x.spf_aligned), 0)::bigint as passing,
             (select policy from dmarc_reports r where ${scope} order by r.begin_at desc limit 1) as policy,
             (select count(*) from (select 1 from dmarc_records x join dmarc_reports r on r.id = x.report_id where ${scope}
                group by x.source_ip, r.org_name, x.dkim_aligned, x.spf_aligned, x.dkim_domain, x.dkim_result, x.spf_domain, x.spf_result) g)::int as groups
        from dmarc_reports r left join dmarc_records x on x.report_id = r.id where ${scope}`),
    d.execute(sql`
      select to_char(date_trunc('day', r.begin_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             coalesce(sum(x.count) filter (where x.dkim_aligned or x.spf_aligned), 0)::bigint as pass,
             coalesce(sum(x.count) filter (where not (x.dkim_aligned or x.spf_aligned)), 0)::bigint as fail
        from dmarc_reports r join dmarc_records x on x.report_id = r.id where ${scope}
       group by 1 order by 1`),
    d.execute(sql`
      select x.source_ip, r.org_name, x.dkim_aligned, x.spf_aligned, x.dkim_domain, x.dkim_result, x.spf_domain, x.spf_result,
             sum(x.count)::bigint as count, array_agg(distinct x.disposition) as dispositions,
             (select n.name from dmarc_source_names n where n.ip = x.source_ip) as name
        from dmarc_reports r join dmarc_records x on x.report_id = r.id where ${scope}
       group by x.source_ip, r.org_name, x.dkim_aligned, x.spf_aligned, x.dkim_domain, x.dkim_result, x.spf_domain, x.spf_result
       order by count desc, x.source_ip limit ${DMARC_VIEW_SOURCES}`),
    // Skipped before download, a report's domain is not known: these are the project's.
    d.execute(sql`
      select count(*)::int as n, (select last_error from dmarc_jobs where project_id = ${project.id} and outcome = 'skipped' order by created_at desc limit 1) as latest
        from dmarc_jobs where project_id = ${project.id} and outcome = 'skipped' and created_at >= ${since}`),
    publishedDmarc(domain),
  ]);
  const rua = await ruaDomain(project, domain, detail.receiving?.enabled ?? false);
  const skip = rowsOf(skipped)[0] ?? {};
  const t = rowsOf(totals)[0] ?? {};
  const messages = Number(t.messages ?? 0);
  const passing = Number(t.passing ?? 0);
  const policy = t.policy == null ? null : String(t.policy);
  const listed = rowsOf(sources).map((s) => {
    const facts = {
      domain,
      dkimAligned: Boolean(s.dkim_aligned),
      spfAligned: Boolean(s.spf_aligned),
      dkimDomain: s.dkim_domain == null ? null : String(s.dkim_domain),
      dkimResult: s.dkim_result == null ? null : String(s.dkim_result),
      spfDomain: s.spf_domain == null ? null : String(s.spf_domain),
      spfResult: s.spf_result == null ? null : String(s.spf_result),
      name: s.name == null ? null : String(s.name),
    };
    return {
      ip: String(s.source_ip),
      reporter: String(s.org_name),
      count: Number(s.count),
      dispositions: (Array.isArray(s.dispositions) ? s.dispositions : String(s.dispositions ?? "").replace(/[{}]/g, "").split(",")).map(String).filter(Boolean),
      ...facts,
      flag: flagSource(facts),
    };
  });
  const suggested = `dmarc@${rua.domain}`;
  const tags = published.record ? dmarcTags(published.record) : {};
  return {
    domain,
    rua: {
      suggested,
      receiving: rua.receiving,
      // RFC 7489 7.1: a receiver sends reports to another domain only when that domain says it takes them.
      authorization: rua.domain === domain ? null : { name: `${domain}._report._dmarc.${rua.domain}`, value: "v=DMARC1" },
      published: published.record,
      policy: tags.p ?? null,
      carries: ruaCarries(tags.rua, suggested),
      lookupError: published.error,
    },
    days: DMARC_VIEW_DAYS,
    reports: Number(t.reports ?? 0),
    messages,
    passing,
    policy,
    daily: rowsOf(daily).map((r) => ({ day: String(r.day), pass: Number(r.pass), fail: Number(r.fail) })),
    sources: listed,
    moreSources: Math.max(0, Number(t.groups ?? 0) - listed.length),
    advice: policyAdvice(policy ?? tags.p ?? null, messages, passing),
    skipped: { count: Number(skip.n ?? 0), latest: skip.latest == null ? null : String(skip.latest) },
  };
}
