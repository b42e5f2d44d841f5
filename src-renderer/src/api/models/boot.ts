export interface TftpSettings {
  enabled: boolean;
  port: number;
  root: string;
  max_blksize: number;
  max_windowsize: number;
  timeout: number;
  retries: number;
}

export interface BootloaderFile {
  name: string;
  architecture: string;
  format: string;
  optional: boolean;
  description: string;
  size: number;
  sha256: string;
  present: boolean;
  source: { package: string; version: string; path: string };
}

export interface BootProblem {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  fix: string;
}

export interface CheckedFile {
  name: string;
  root: string;
  architecture: string | null;
  bundled: boolean;
  optional: boolean;
  referenced_by: string[];
  present: boolean;
  readable: boolean;
  size: number | null;
  format: string | null;
  sha256: string | null;
  checksum: 'match' | 'mismatch' | 'unknown';
  ok: boolean;
  problems: BootProblem[];
}

export interface BootloaderCheck {
  ok: boolean;
  checked_at: string;
  files: CheckedFile[];
  problems: (BootProblem & { name: string; root: string })[];
}

export interface FileCheck {
  name: string;
  ok: boolean;
  results: CheckedFile[];
}
