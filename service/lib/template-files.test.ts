import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../test/harness";
import { loadTemplateFiles } from "./template-files";

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function folder(files: Record<string, Record<string, string>>) {
  const { dir, remove } = tempDir("svc-tpl-");
  cleanup = remove;
  for (const [slug, content] of Object.entries(files)) {
    mkdirSync(join(dir, slug));
    for (const [name, text] of Object.entries(content)) writeFileSync(join(dir, slug, name), text);
  }
  return dir;
}

describe("loadTemplateFiles", () => {
  it("reads the service's own templates: welcome, password reset and a receipt with a list section", () => {
    const files = loadTemplateFiles();
    expect(files.map((f) => f.slug)).toEqual(["password-reset", "receipt", "welcome"]);
    for (const f of files) expect(f.html && f.text).toBeTruthy();
    expect(files.find((f) => f.slug === "receipt")!.text).toContain("{{#items}}");
  });

  it("accepts a template with only a text body", () => {
    const dir = folder({ note: { "template.json": '{"name":"Note","subject":"A note"}', "body.txt": "Hi" } });
    expect(loadTemplateFiles(dir)).toEqual([{ slug: "note", name: "Note", subject: "A note", html: null, text: "Hi" }]);
  });

  it.each([
    [{ Bad_Slug: { "template.json": '{"name":"x","subject":"y"}', "body.txt": "x" } }, /slug/],
    [{ nometa: { "body.txt": "x" } }, /template\.json/],
    [{ nosubject: { "template.json": '{"name":"x"}', "body.txt": "x" } }, /template\.json/],
    [{ nobody: { "template.json": '{"name":"x","subject":"y"}' } }, /body\.html, body\.txt/],
    [{ broken: { "template.json": '{"name":"x","subject":"y"}', "body.html": "{{#a}}" } }, /html: Unclosed section/],
  ])("refuses a broken template folder with a message naming it", (files, message) => {
    expect(() => loadTemplateFiles(folder(files))).toThrow(message);
  });
});
