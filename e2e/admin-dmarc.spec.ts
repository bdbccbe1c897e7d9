import nodemailer from "nodemailer";
import { expect, painted, reloadUntilFound, screenshot, test, visit } from "./fixtures";
import { googleReport, SAMPLE_ROWS } from "../lib/test/dmarc-samples";
import { project, service, unique } from "./journeys/journey";
import { authFile, run } from "./support/run";

/**
 * Issue 30 part 3: a DMARC aggregate report sent as real inbound mail over SMTP to the
 * service's listener reaches the dashboard through the event stream, is read by the report
 * job, and its sources show on the domain screen's DMARC section.
 */
test.use({ storageState: authFile("admin") });

test("a report mailed to dmarc@ over SMTP shows its sources, the failing one explained, on the domain screen", async ({ page }) => {
  // A spec of the bundled service only (not a journey): its inbound SMTP listener is always there.
  expect(run.smtpPort, "the bundled service's inbound SMTP port (E2E_SMTP_PORT)").not.toBeNull();
  const domains = await service<{ data: { id: string; domain: string }[] }>("GET", "/v1/domains?status=verified", undefined, project);
  const domain = domains.json.data[0]!;
  const report = googleReport(domain.domain, SAMPLE_ROWS, `e2e-${unique()}`);

  const info = await nodemailer
    .createTransport({ host: "127.0.0.1", port: run.smtpPort!, secure: false, ignoreTLS: true })
    .sendMail({
      from: "noreply-dmarc-support@google.com",
      to: `dmarc@${domain.domain}`,
      subject: `Report domain: ${domain.domain} Submitter: google.com Report-ID: ${unique()}`,
      text: "This is an aggregate report from google.com.",
      attachments: [{ filename: report.filename, contentType: report.contentType, content: Buffer.from(report.bytes) }],
    });
  expect(info.accepted).toEqual([`dmarc@${domain.domain}`]);

  const screen = `/p/${encodeURIComponent(project)}/domains/${encodeURIComponent(domain.id)}`;
  expect(await visit(page, screen)).toBe(200);
  // The section is there before it is opened, with the address to publish; the reports load on use.
  const section = page.getByRole("region", { name: "DMARC reports" });
  await expect(section.getByText(`rua=mailto:dmarc@${domain.domain}`)).toBeVisible();
  await section.getByRole("button", { name: "Show reports" }).click();
  await expect(page).toHaveURL(/[?&]dmarc=1/);

  // The webhook, the re-read and the job are asynchronous: reload until the sources show.
  const sources = section.getByRole("list", { name: "Sources sending as this domain" });
  // Loaded: the sources, or the empty state while the report is still on its way.
  const loaded = sources.or(section.getByText("No reports yet"));
  await reloadUntilFound(page, loaded, sources.getByText("209.85.220.41"), "the report's sources appear on the DMARC section");
  await expect(sources.getByRole("listitem")).toHaveCount(3);
  await expect(sources.getByText("203.0.113.9")).toBeVisible();
  await expect(sources.getByText("Unconfigured sender.")).toBeVisible();
  await expect(sources.getByText(/signs as mailer\.example/)).toBeVisible();
  await expect(section.getByText(/157 messages, of which/)).toBeVisible();
  await expect(section.getByTestId("dmarc-advice")).toContainText("95.5% of messages pass. Fix the flagged sources");

  await painted(page);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "admin-dmarc-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "admin-dmarc-phone");
});
