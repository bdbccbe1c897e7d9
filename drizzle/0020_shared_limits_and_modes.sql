CREATE TABLE "event_stream_modes" (
	"project_id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_work_claims" (
	"kind" text NOT NULL,
	"user_id" text NOT NULL,
	"running_until" timestamp with time zone,
	"recent" timestamp with time zone[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "user_work_claims_kind_user_id_pk" PRIMARY KEY("kind","user_id")
);
--> statement-breakpoint
ALTER TABLE "event_stream_modes" ADD CONSTRAINT "event_stream_modes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_work_claims" ADD CONSTRAINT "user_work_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;