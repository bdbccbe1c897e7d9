/** The four thresholds, as the settings show them and the editor names its fields. */
export const THRESHOLD_FIELDS = [
  { name: "bounceWarning", label: "Bounce rate: warning" },
  { name: "bounceLimit", label: "Bounce rate: limit" },
  { name: "complaintWarning", label: "Complaint rate: warning" },
  { name: "complaintLimit", label: "Complaint rate: limit" },
] as const;
