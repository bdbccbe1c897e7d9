import { describe, expect, it } from "vitest";
import { batchJobRequest, composeForm, localToUtcIso, recipientCount, toSendRequest, type ComposeForm } from "./compose";
import { contactForm, contactLookupQuery, resubscribeRequest, toCreateContact } from "./contacts-form";
import { sampleRequest } from "./templates-form";
import { parseMergeJson } from "@/lib/templates/merge-data";

const valid = (): ComposeForm => ({
  mode: "content",
  from: { email: "hello@acme.test", name: "Acme" },
  to: [{ email: "ada@example.com", name: "Ada" }],
  cc: [{ email: "cc@example.com" }],
  bcc: [],
  replyTo: [],
  subject: "Hello",
  html: "<p>Hi</p>",
  text: "",
  data: {},
  tags: [{ name: "campaign", value: "spring" }],
  headers: [{ name: "X-Campaign", value: "spring" }],
  attachments: [{ filename: "a.txt", content: "aGk=", contentType: "text/plain", size: 2 }],
  sendAt: "now",
  scheduledLocal: "",
  timeZone: "Europe/Paris",
});

/** The first issue's path, as the form shows it at a field. */
function firstPath(value: unknown): string | null {
  const r = composeForm.safeParse(value);
  return r.success ? null : r.error.issues[0].path.join(".");
}

describe("compose form", () => {
  it("accepts a full message and builds the wire body", () => {
    const body = toSendRequest(composeForm.parse(valid()));
    expect(body).toEqual({
      from: { email: "hello@acme.test", name: "Acme" },
      to: [{ email: "ada@example.com", name: "Ada" }],
      cc: [{ email: "cc@example.com" }],
      subject: "Hello",
      html: "<p>Hi</p>",
      tags: [{ name: "campaign", value: "spring" }],
      headers: { "X-Campaign": "spring" },
      attachments: [{ filename: "a.txt", content: "aGk=", contentType: "text/plain" }],
    });
    expect(recipientCount(valid())).toBe(2);
  });

  it.each([
    ["no recipient", { to: [] }, "to"],
    ["a malformed recipient", { to: [{ email: "ada-at-example.com" }] }, "to.0.email"],
    ["a malformed cc", { cc: [{ email: "nope" }] }, "cc.0.email"],
    ["a malformed sender", { from: { email: "x" } }, "from.email"],
    ["no subject", { subject: "" }, "subject"],
    ["a subject with a line break", { subject: "a\nb" }, "subject"],
    ["no body", { html: "", text: "" }, "html"],
    ["a header value with a line break", { headers: [{ name: "X-A", value: "a\r\nBcc: x@y.z" }] }, "headers.0.value"],
    ["a header name with a space", { headers: [{ name: "X A", value: "a" }] }, "headers.0.name"],
    ["a reserved header", { headers: [{ name: "Subject", value: "a" }] }, "headers.0.name"],
    ["a repeated header", { headers: [{ name: "X-A", value: "1" }, { name: "x-a", value: "2" }] }, "headers.1.name"],
    ["a tag with a space", { tags: [{ name: "my tag", value: "v" }] }, "tags.0.name"],
    ["an attachment that is not base64", { attachments: [{ filename: "a", content: "%%%", contentType: "text/plain", size: 1 }] }, "attachments.0.content"],
    ["a past send time", { sendAt: "later", scheduledLocal: "2020-01-01T09:00" }, "scheduledLocal"],
    ["no send time", { sendAt: "later", scheduledLocal: "" }, "scheduledLocal"],
    ["an unknown zone", { sendAt: "later", scheduledLocal: "2099-01-01T09:00", timeZone: "Mars/Olympus" }, "timeZone"],
    ["a template mode without a template", { mode: "template", subject: "" }, "templateId"],
  ])("refuses %s at the field", (_, patch, path) => {
    expect(firstPath({ ...valid(), ...patch })).toBe(path);
  });

  it("turns a wall-clock time in a zone into UTC", () => {
    expect(localToUtcIso("2030-07-01T09:00", "Europe/Paris")).toBe("2030-07-01T07:00:00.000Z");
    expect(localToUtcIso("2030-01-01T09:00", "America/New_York")).toBe("2030-01-01T14:00:00.000Z");
    const later = composeForm.parse({ ...valid(), sendAt: "later", scheduledLocal: "2099-03-01T09:30", timeZone: "UTC" });
    expect(toSendRequest(later).scheduledAt).toBe("2099-03-01T09:30:00.000Z");
  });

  it("sends a template with its merge data and without an empty body", () => {
    const body = toSendRequest(composeForm.parse({ ...valid(), mode: "template", templateId: "welcome", subject: "", data: { firstName: "Ada", lastName: "" } }));
    expect(body).toMatchObject({ templateId: "welcome", data: { firstName: "Ada" } });
    expect(body).not.toHaveProperty("html");
    expect(body).not.toHaveProperty("subject");
  });
});

describe("batch job request", () => {
  it("names the missing column mapping and the confirmation", () => {
    const r = batchJobRequest.safeParse({ csv: "email\na@b.co", mapping: {}, content: { from: { email: "a@b.co" } } });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["mapping.email", "confirmCount"]));
  });
});

describe("contact form", () => {
  const base = { email: "ada@example.com", firstName: "Ada", lastName: "", subscribed: true, metadata: [{ key: "plan", value: "pro" }] };
  it("builds the wire body with metadata as an object", () => {
    expect(toCreateContact(contactForm.parse(base))).toEqual({ email: "ada@example.com", firstName: "Ada", subscribed: true, metadata: { plan: "pro" } });
  });
  it.each([
    ["a malformed address", { email: "ada" }, "email"],
    ["a metadata row without a key", { metadata: [{ key: "", value: "x" }] }, "metadata.0.key"],
    ["a repeated metadata key", { metadata: [{ key: "a", value: "1" }, { key: "a", value: "2" }] }, "metadata.1.key"],
    ["a first name too long", { firstName: "x".repeat(201) }, "firstName"],
  ])("refuses %s at the field", (_, patch, path) => {
    const r = contactForm.safeParse({ ...base, ...patch });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path.join(".")).toBe(path);
  });
  it("asks for a reason to resubscribe and exactly one look-up key", () => {
    expect(resubscribeRequest.safeParse({ reason: " " }).error?.issues[0].path).toEqual(["reason"]);
    expect(contactLookupQuery.safeParse({}).error?.issues[0].path).toEqual(["id"]);
    expect(contactLookupQuery.safeParse({ id: "c1", email: "a@b.co" }).success).toBe(false);
    expect(contactLookupQuery.safeParse({ email: "a@b.co" }).success).toBe(true);
  });
});

describe("template forms", () => {
  it("names the sample set's missing name and bad merge JSON", () => {
    expect(sampleRequest.safeParse({ name: "", data: {} }).error?.issues[0].path).toEqual(["name"]);
    expect(parseMergeJson("{")).toMatchObject({ error: expect.stringMatching(/^data: is not valid JSON/) });
    expect(parseMergeJson("[1]")).toMatchObject({ error: expect.stringMatching(/^data: must be a JSON object/) });
    expect(parseMergeJson('{"a":1}')).toEqual({ data: { a: 1 } });
  });
});
