import type { OsFamily, ScriptKind } from '@contracts/scripts';

export const SCRIPT_KIND_LABELS: Record<ScriptKind, string> = {
  sh: 'POSIX sh',
  bash: 'Bash',
  powershell: 'PowerShell',
  batch: 'Windows batch',
  'cloud-init': 'cloud-init',
};

export const OS_FAMILY_LABELS: Record<OsFamily, string> = { linux: 'Linux', windows: 'Windows', any: 'Any' };

/** What a new script of each kind starts with: the smallest text that passes its check. */
export const STARTER_CONTENT: Record<ScriptKind, string> = {
  sh: '#!/bin/sh\nset -eu\n\necho "configuring {{ host.hostname }}"\n',
  bash: '#!/bin/bash\nset -euo pipefail\n\necho "configuring {{ host.hostname }}"\n',
  powershell: '$ErrorActionPreference = "Stop"\r\n\r\nWrite-Host "configuring {{ host.hostname }}"\r\n',
  batch: '@echo off\r\necho configuring {{ host.hostname }}\r\n',
  'cloud-init': '#cloud-config\nhostname: {{ host.hostname }}\npackages:\n  - curl\n',
};
