CREATE TABLE "dashboard_api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"project" text,
	"created_in" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_by" text,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_chunks" (
	"job_id" text NOT NULL,
	"round" integer NOT NULL,
	"idx" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"rows" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "batch_chunks_job_id_round_idx_pk" PRIMARY KEY("job_id","round","idx")
);
--> statement-breakpoint
CREATE TABLE "batch_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"project_external_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"file_name" text,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total_rows" integer NOT NULL,
	"retry_round" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "batch_rows" (
	"job_id" text NOT NULL,
	"row" integer NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"message_id" text,
	"error_message" text,
	"error_code" text,
	"error_field" text,
	CONSTRAINT "batch_rows_job_id_row_pk" PRIMARY KEY("job_id","row")
);
--> statement-breakpoint
CREATE TABLE "contacts_index" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"subscribed" boolean NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"metadata" jsonb,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contacts_index_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"project" text,
	"target" text,
	"outcome" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "user_projects" (
	"user_id" text NOT NULL,
	"project_id" text NOT NULL,
	CONSTRAINT "user_projects_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"role" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"all_projects" boolean DEFAULT true NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"sessions_valid_from" timestamp with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "event_streams" (
	"project_id" text PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"url" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_event_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "indexed_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"project_id" text NOT NULL,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"webhook_id" text
);
--> statement-breakpoint
CREATE TABLE "indexed_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"from_address" text NOT NULL,
	"to_addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bcc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"html" text,
	"text" text,
	"headers" jsonb,
	"template_id" text,
	"thread_id" text,
	"in_reply_to" text,
	"scheduled_at" timestamp with time zone,
	"idempotency_key" text,
	"sent_by" text,
	"source" text NOT NULL,
	"batch_job_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_event_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexed_recipients" (
	"message_id" text NOT NULL,
	"project_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "indexed_recipients_message_id_email_role_pk" PRIMARY KEY("message_id","email","role")
);
--> statement-breakpoint
CREATE TABLE "reauth_confirmations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_samples" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"template_id" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_by_email" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_api_keys" ADD CONSTRAINT "dashboard_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_chunks" ADD CONSTRAINT "batch_chunks_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD CONSTRAINT "batch_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts_index" ADD CONSTRAINT "contacts_index_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_projects" ADD CONSTRAINT "user_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_projects" ADD CONSTRAINT "user_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indexed_messages" ADD CONSTRAINT "indexed_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indexed_messages" ADD CONSTRAINT "indexed_messages_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indexed_recipients" ADD CONSTRAINT "indexed_recipients_message_id_indexed_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."indexed_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reauth_confirmations" ADD CONSTRAINT "reauth_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_samples" ADD CONSTRAINT "template_samples_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_api_keys_project_idx" ON "dashboard_api_keys" USING btree ("project");--> statement-breakpoint
CREATE INDEX "dashboard_api_keys_created_in_idx" ON "dashboard_api_keys" USING btree ("created_in");--> statement-breakpoint
CREATE INDEX "batch_chunks_status_idx" ON "batch_chunks" USING btree ("status","lease_until");--> statement-breakpoint
CREATE INDEX "batch_jobs_project_created_idx" ON "batch_jobs" USING btree ("project_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "batch_rows_job_status_idx" ON "batch_rows" USING btree ("job_id","status");--> statement-breakpoint
CREATE INDEX "contacts_index_email_idx" ON "contacts_index" USING btree ("project_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_idx" ON "audit_log" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_log_project_idx" ON "audit_log" USING btree ("project");--> statement-breakpoint
CREATE INDEX "login_attempts_key_at_idx" ON "login_attempts" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "user_projects_project_idx" ON "user_projects" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "indexed_events_webhook_id_idx" ON "indexed_events" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "indexed_events_message_idx" ON "indexed_events" USING btree ("message_id","occurred_at");--> statement-breakpoint
CREATE INDEX "indexed_events_project_type_idx" ON "indexed_events" USING btree ("project_id","type","occurred_at");--> statement-breakpoint
CREATE INDEX "indexed_messages_project_created_idx" ON "indexed_messages" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "indexed_messages_project_status_created_idx" ON "indexed_messages" USING btree ("project_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "indexed_messages_thread_idx" ON "indexed_messages" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "indexed_messages_scheduled_idx" ON "indexed_messages" USING btree ("project_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "indexed_recipients_lookup_idx" ON "indexed_recipients" USING btree ("project_id","email","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "template_samples_name_idx" ON "template_samples" USING btree ("project_id","template_id","name");