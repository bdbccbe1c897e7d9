CREATE TABLE "alert_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"alert_event_id" text NOT NULL,
	"project_id" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"message_id" text,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"metric" text NOT NULL,
	"episode" integer NOT NULL,
	"level" text NOT NULL,
	"previous_level" text NOT NULL,
	"kind" text NOT NULL,
	"window" text NOT NULL,
	"rate" double precision,
	"threshold" double precision,
	"windows" jsonb NOT NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"project_id" text PRIMARY KEY NOT NULL,
	"bounce_warning" double precision,
	"bounce_limit" double precision,
	"complaint_warning" double precision,
	"complaint_limit" double precision,
	"webhook_url" text,
	"webhook_secret_ciphertext" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "alert_states" (
	"project_id" text NOT NULL,
	"metric" text NOT NULL,
	"level" text DEFAULT 'ok' NOT NULL,
	"episode" integer DEFAULT 0 NOT NULL,
	"windows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_states_project_id_metric_pk" PRIMARY KEY("project_id","metric")
);
--> statement-breakpoint
CREATE TABLE "insight_dirty" (
	"message_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insight_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"provider" text,
	"source" text NOT NULL,
	"mx" text,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insight_facts" (
	"message_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"recipient" text NOT NULL,
	"domain" text NOT NULL,
	"provider" text NOT NULL,
	"outcome" text NOT NULL,
	"opened" boolean NOT NULL,
	"clicked" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insight_hourly" (
	"project_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_hourly_project_id_hour_provider_pk" PRIMARY KEY("project_id","hour","provider")
);
--> statement-breakpoint
CREATE TABLE "insight_link_clicks" (
	"message_id" text NOT NULL,
	"link" text NOT NULL,
	"project_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "insight_link_clicks_message_id_link_pk" PRIMARY KEY("message_id","link")
);
--> statement-breakpoint
CREATE TABLE "insight_link_hourly" (
	"project_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"link" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_link_hourly_project_id_hour_link_pk" PRIMARY KEY("project_id","hour","link")
);
--> statement-breakpoint
CREATE TABLE "insight_link_recipients" (
	"project_id" text NOT NULL,
	"link" text NOT NULL,
	"recipient" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "insight_link_recipients_project_id_link_recipient_pk" PRIMARY KEY("project_id","link","recipient")
);
--> statement-breakpoint
CREATE TABLE "insight_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_event_id_alert_events_id_fk" FOREIGN KEY ("alert_event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_states" ADD CONSTRAINT "alert_states_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_facts" ADD CONSTRAINT "insight_facts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_hourly" ADD CONSTRAINT "insight_hourly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_link_clicks" ADD CONSTRAINT "insight_link_clicks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_link_hourly" ADD CONSTRAINT "insight_link_hourly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_link_recipients" ADD CONSTRAINT "insight_link_recipients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_target_idx" ON "alert_deliveries" USING btree ("alert_event_id","channel","target");--> statement-breakpoint
CREATE INDEX "alert_events_project_at_idx" ON "alert_events" USING btree ("project_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_episode_idx" ON "alert_events" USING btree ("project_id","metric","episode");--> statement-breakpoint
CREATE INDEX "insight_domains_expires_idx" ON "insight_domains" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "insight_facts_project_at_idx" ON "insight_facts" USING btree ("project_id","at");--> statement-breakpoint
CREATE INDEX "insight_facts_domain_idx" ON "insight_facts" USING btree ("domain","provider");--> statement-breakpoint
CREATE INDEX "insight_link_recipients_recent_idx" ON "insight_link_recipients" USING btree ("project_id","link","last_at");