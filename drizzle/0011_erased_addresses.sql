CREATE TABLE "erased_addresses" (
	"project_id" text NOT NULL,
	"address_hash" text NOT NULL,
	"sealed" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erased_addresses_project_id_address_hash_pk" PRIMARY KEY("project_id","address_hash")
);
--> statement-breakpoint
ALTER TABLE "erased_addresses" ADD CONSTRAINT "erased_addresses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;