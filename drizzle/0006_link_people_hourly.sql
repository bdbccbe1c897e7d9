CREATE TABLE "insight_link_people_hourly" (
	"project_id" text NOT NULL,
	"link" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"people" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_link_people_hourly_project_id_link_hour_pk" PRIMARY KEY("project_id","link","hour")
);
--> statement-breakpoint
ALTER TABLE "insight_link_people_hourly" ADD CONSTRAINT "insight_link_people_hourly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;