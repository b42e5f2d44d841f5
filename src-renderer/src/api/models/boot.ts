export interface EntryScript {
  script: string;
  is_default: boolean;
  default_script: string;
  updated_at: string | null;
  updated_by: string | null;
}
