CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_stream_health" (
	"project_id" text PRIMARY KEY NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"last_accepted_at" timestamp with time zone,
	"last_unusable_at" timestamp with time zone,
	"last_refused_at" timestamp with time zone,
	"accepted_count" bigint DEFAULT 0 NOT NULL,
	"unusable_count" bigint DEFAULT 0 NOT NULL,
	"refused_count" bigint DEFAULT 0 NOT NULL,
	"last_reason" text,
	"last_reason_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_rereads" (
	"project_id" text NOT NULL,
	"message_id" text NOT NULL,
	"reason" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_rereads_project_id_message_id_pk" PRIMARY KEY("project_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "reread_pauses" (
	"project_id" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"strikes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"signed_in_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"method" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_attempts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "login_attempts" CASCADE;--> statement-breakpoint
DROP INDEX "indexed_events_webhook_id_idx";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "all_projects" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "dashboard_api_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dashboard_api_keys" ADD COLUMN "revoked_by_email" text;--> statement-breakpoint
ALTER TABLE "indexed_events" ADD COLUMN "origin" text DEFAULT 'stream' NOT NULL;--> statement-breakpoint
ALTER TABLE "indexed_messages" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_stream_health" ADD CONSTRAINT "event_stream_health_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_rereads" ADD CONSTRAINT "message_rereads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reread_pauses" ADD CONSTRAINT "reread_pauses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "message_rereads_due_idx" ON "message_rereads" USING btree ("project_id","due_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "indexed_events_project_webhook_id_idx" ON "indexed_events" USING btree ("project_id","webhook_id");--> statement-breakpoint
CREATE INDEX "indexed_messages_in_reply_to_idx" ON "indexed_messages" USING btree ("in_reply_to");--> statement-breakpoint
CREATE INDEX "indexed_messages_unsettled_idx" ON "indexed_messages" USING btree ("project_id","created_at" DESC NULLS LAST) WHERE status not in ('delivered', 'bounced', 'complained', 'rejected', 'failed', 'received', 'canceled');--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "sessions_valid_from";--> statement-breakpoint
ALTER TABLE "event_streams" DROP COLUMN "last_event_at";