export interface Host {
  id: number;
  mac: string;
  hostname: string | null;
  ip: string | null;
  profile_id: number | null;
  group: string | null;
  tags: string[];
  description: string;
  arch: string | null;
  platform: string | null;
  enabled: boolean;
  discovered: boolean;
  last_boot_at: string | null;
  last_seen_ip: string | null;
  created_at: string;
  updated_at: string;
}

export interface HostInput {
  mac: string;
  hostname?: string | null;
  ip?: string | null;
  profile_id?: number | null;
  group?: string | null;
  tags?: string[];
  description?: string;
  arch?: string | null;
  enabled?: boolean;
  discovered?: boolean;
}

/** GET /hosts/{id}/boot-config: what the host would get if it booted now. */
export interface BootConfig {
  host_id: number;
  mac: string;
  action: 'profile' | 'menu' | 'local' | 'denied';
  reason: string;
  reason_text: string;
  profile: { id: number; name: string; boot_type: string; script_version: number } | null;
  script: string;
  render_error: string | null;
  files: { command: string; url: string }[];
  entry_url: string;
  script_url: string;
  client_ip: string | null;
}
