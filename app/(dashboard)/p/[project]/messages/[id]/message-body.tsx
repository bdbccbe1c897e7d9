"use client";

import * as React from "react";
import { ImageIcon } from "lucide-react";
import type { Message } from "@/lib/schemas/emails";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useUrlState } from "@/components/hooks/use-url-state";
import { EmailFrame } from "@/components/messages/email-frame";
import { SchemeSwitch } from "@/components/messages/scheme-switch";
import { useEmailScheme } from "@/components/messages/use-email-scheme";
import { BoundedText } from "@/components/messages/bounded-text";
import { HeadersList } from "@/components/messages/headers-list";

const TABS = ["html", "source", "text", "headers"] as const;
type Tab = (typeof TABS)[number];

/** HTML (sandboxed, remote images off until allowed), its source, text and headers; the tab lives in the URL. */
export function MessageBody({ message }: { message: Message }) {
  const { get, set } = useUrlState();
  const [allowImages, setAllowImages] = React.useState(false);
  // Counted by the frame as it reads the html (in one pass with the rewriting).
  const [remote, setRemote] = React.useState(0);
  const [scheme, setScheme] = useEmailScheme();
  const [darkStyles, setDarkStyles] = React.useState<boolean | null>(null);
  const html = message.html ?? null;
  const text = message.text ?? null;
  const headers = Object.entries(message.headers ?? {});
  const fallback: Tab = html ? "html" : text ? "text" : "headers";
  const requested = get("tab") as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) ? requested : fallback;
  const files = `message-${message.id}`;

  if (!html && !text && headers.length === 0) {
    return <p className="text-sm text-muted-foreground">The body of this message is not known: the service did not return it and the dashboard did not send it.</p>;
  }
  return (
    <Tabs value={tab} onValueChange={(v) => set({ tab: v === fallback ? null : v }, { replace: true, keepCursor: true })}>
      <TabsList aria-label="Message body">
        <TabsTrigger value="html" disabled={!html}>
          HTML
        </TabsTrigger>
        <TabsTrigger value="source" disabled={!html}>
          Source
        </TabsTrigger>
        <TabsTrigger value="text" disabled={!text}>
          Text
        </TabsTrigger>
        <TabsTrigger value="headers">Headers</TabsTrigger>
      </TabsList>
      <TabsContent value="html" className="space-y-2">
        {html && remote > 0 && (
          <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
            <ImageIcon className="size-4" aria-hidden="true" />
            {allowImages ? (
              <span>Remote images are shown.</span>
            ) : (
              <>
                <span>
                  {remote} remote image{remote === 1 ? " is" : "s are"} blocked, so the sender cannot tell it was opened.
                </span>
                <Button size="sm" variant="outline" onClick={() => setAllowImages(true)}>
                  Show remote images
                </Button>
              </>
            )}
          </div>
        )}
        {html && <SchemeSwitch value={scheme} onChange={setScheme} darkStyles={darkStyles} />}
        {html && <EmailFrame html={html} allowRemoteImages={allowImages} onRemoteImages={setRemote} scheme={scheme} onDarkStyles={setDarkStyles} title={`Email body: ${message.subject ?? "(no subject)"}`} />}
      </TabsContent>
      <TabsContent value="source">{html && <BoundedText text={html} filename={`${files}.html.txt`} label="HTML source" />}</TabsContent>
      <TabsContent value="text">{text && <BoundedText text={text} filename={`${files}.txt`} label="Text version" />}</TabsContent>
      <TabsContent value="headers">
        <HeadersList headers={headers} filename={`${files}-headers.txt`} />
      </TabsContent>
    </Tabs>
  );
}
