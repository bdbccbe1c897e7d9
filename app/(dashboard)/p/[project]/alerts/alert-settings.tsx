"use client";

import * as React from "react";
import { Pencil } from "lucide-react";
import { formatThreshold } from "@/lib/insight/thresholds";
import type { AlertSettingsView } from "@/lib/schemas/alerts";
import { Button } from "@/components/ui/button";
import { THRESHOLD_FIELDS } from "./threshold-fields";

const load = () => import("./alert-settings-form");
const Editor = React.lazy(() => load().then((m) => ({ default: m.AlertSettingsForm })));

function Current({ settings }: { settings: AlertSettingsView }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {THRESHOLD_FIELDS.map((f) => (
        <div key={f.name} className="flex justify-between gap-2" data-setting={f.name}>
          <dt className="text-muted-foreground">{f.label}</dt>
          <dd className="tabular-nums">{formatThreshold(settings[f.name] / 100)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-2 sm:col-span-2" data-setting="webhookUrl">
        <dt className="text-muted-foreground">Webhook</dt>
        <dd className="break-all">{settings.webhookUrl || "none"}</dd>
      </div>
    </dl>
  );
}

/**
 * The project's thresholds and alert webhook as they stand; an admin's "Change" opens the
 * editor in place (./alert-settings-form.tsx), whose code loads then — hovering or focusing
 * the button starts the download — rather than with the screen.
 */
export function AlertSettings({ project, settings, canEdit }: { project: string; settings: AlertSettingsView; canEdit: boolean }) {
  const [editing, setEditing] = React.useState(false);
  const change = React.useRef<HTMLButtonElement>(null);
  const closed = React.useRef(false);
  React.useEffect(() => {
    // Back from the editor: focus returns to the button that opened it.
    if (!editing && closed.current) change.current?.focus();
  }, [editing]);
  const preload = () => void load().catch(() => {});
  return (
    <section id="alert-settings" className="space-y-3 rounded-lg border bg-card p-4" aria-labelledby="alert-settings-title">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id="alert-settings-title" className="text-base font-semibold">
            Thresholds and notifications
          </h2>
          <p className="text-sm text-muted-foreground">
            A window is judged from {settings.minVolume.toLocaleString()} messages (ALERT_MIN_VOLUME), so a handful cannot raise an alert. Emails go to every admin who can
            open this project, through the service, from {settings.from}.
            {!canEdit && " Only admins change these."}
          </p>
        </div>
        {canEdit && !editing && (
          <Button ref={change} type="button" variant="outline" size="sm" className="shrink-0" onPointerEnter={preload} onFocus={preload} onClick={() => setEditing(true)}>
            <Pencil aria-hidden /> Change
          </Button>
        )}
      </div>
      {editing ? (
        <React.Suspense fallback={<div className="h-48 animate-pulse rounded-md bg-muted" aria-busy="true" aria-label="Loading the editor" role="status" />}>
          <Editor project={project} settings={settings} onDone={() => {
              closed.current = true;
              setEditing(false);
            }}
          />
        </React.Suspense>
      ) : (
        <Current settings={settings} />
      )}
    </section>
  );
}
