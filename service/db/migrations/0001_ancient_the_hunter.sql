CREATE TABLE "demo_histories" (
	"project_id" text PRIMARY KEY NOT NULL,
	"messages" integer NOT NULL,
	"events" integer NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replay_candidates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"replay_webhook_id" text,
	"replay_cutoff_event_id" bigint,
	"replay_cursor_at" timestamp with time zone,
	"replay_cursor_id" text,
	"replay_batch" integer DEFAULT 0 NOT NULL,
	"replay_deliveries" integer DEFAULT 0 NOT NULL,
	"replay_finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "demo_histories" ADD CONSTRAINT "demo_histories_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_histories" ADD CONSTRAINT "demo_histories_replay_webhook_id_webhooks_id_fk" FOREIGN KEY ("replay_webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE no action ON UPDATE no action;