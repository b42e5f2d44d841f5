import { MAX_OUTPUT_TAIL_CHARS, type AssignedBaseline } from '../baselines-contract.js';

/*
 * What a machine downloads to run its baseline (docs/baselines.md,
 * "Runtime"): a POSIX sh runner for Linux and a PowerShell runner for
 * Windows, both with the token's runtime URL inside, and the line-oriented
 * list of steps the sh runner reads (no JSON parser on a fresh system).
 */

/** First line of scripts.txt: its format, so a runner can refuse one it does not know. */
export const MANIFEST_HEADER = '# bootwright-baseline-steps 1: position sha256 continue_on_error timeout_seconds kind script_id name';

/** A value inside sh single quotes. */
function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A value inside PowerShell single quotes. */
function psQuote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A name on one manifest line: no control characters (a newline would start a new step). */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || '-';
}

/**
 * scripts.txt: the header, then one line per step, fields separated by one
 * space, the name last (so `read -r` gives it the rest of the line).
 */
export function scriptManifest(assigned: AssignedBaseline): string {
  const lines = [MANIFEST_HEADER];
  for (const script of assigned.scripts) {
    lines.push([script.position, script.sha256, script.continue_on_error ? 1 : 0, script.timeout_seconds, script.kind, script.script_id, oneLine(script.name)].join(' '));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The sh runner. Written for dash and busybox ash as much as bash: only
 * POSIX sh, `wget` (busybox's too) or `curl`, `sha256sum`, `tail -c`, `mktemp`
 * (with a fallback) and `timeout` when present. The whole runner is one
 * function called on the last line, so a download cut short runs nothing; a
 * script's stdin is /dev/null, so it cannot eat the rest of a runner read
 * from a pipe. Results go up as raw text (POST .../report?...), never JSON:
 * building JSON with escapes in sh is where such runners break.
 */
export function shellRunner(runtimeUrl: string, label: string): string {
  return `#!/bin/sh
# Bootwright baseline runner for ${oneLine(label)} (docs/baselines.md, "Runtime").
# Run it as root:  wget -qO- <this URL> | sh   or   curl -fsS <this URL> | sh
# Exit status: 0 when the run succeeded, 1 when it failed or could not start.
bw_main() {
  BW_URL=${shQuote(runtimeUrl)}
  umask 077
  BW_DIR=$(mktemp -d 2>/dev/null) || BW_DIR=/tmp/bootwright-baseline.$$
  mkdir -p "$BW_DIR" || { echo "bootwright baseline: cannot create $BW_DIR" >&2; return 1; }
  trap 'rm -rf "$BW_DIR"' EXIT
  trap 'exit 130' INT TERM
  if command -v curl >/dev/null 2>&1; then
    bw_get() { curl -fsS -o "$2" "$BW_URL/$1"; }
    bw_post() { curl -fsS -o "$3" -H 'Content-Type: application/octet-stream' --data-binary "@$2" "$BW_URL/$1"; }
  elif command -v wget >/dev/null 2>&1; then
    bw_get() { wget -q -O "$2" "$BW_URL/$1"; }
    bw_post() { wget -q -O "$3" --header 'Content-Type: application/octet-stream' --post-file "$2" "$BW_URL/$1"; }
  else
    echo 'bootwright baseline: needs curl or wget' >&2
    return 1
  fi
  # Scripts post what they collect for the host record here (the "Hardware inventory report" script does).
  BOOTWRIGHT_INVENTORY_URL="$BW_URL/inventory"
  export BOOTWRIGHT_INVENTORY_URL
  BW_TIMEOUT=0
  command -v timeout >/dev/null 2>&1 && BW_TIMEOUT=1
  : > "$BW_DIR/empty"
  bw_get scripts.txt "$BW_DIR/steps" </dev/null || { echo 'bootwright baseline: cannot fetch the script list' >&2; return 1; }
  read -r bw_header < "$BW_DIR/steps"
  case $bw_header in
    '# bootwright-baseline-steps 1:'*) ;;
    *) echo 'bootwright baseline: unexpected script list format' >&2; return 1 ;;
  esac
  bw_count=0
  while read -r bw_pos bw_rest; do
    case $bw_pos in ''|'#'*) continue ;; esac
    bw_count=$((bw_count + 1))
  done < "$BW_DIR/steps"
  if [ "$bw_count" -eq 0 ]; then
    echo 'bootwright baseline: no baseline is assigned to this machine'
    return 0
  fi
  bw_post report "$BW_DIR/empty" "$BW_DIR/run" </dev/null || { echo 'bootwright baseline: cannot start a run' >&2; return 1; }
  read -r BW_RUN bw_state < "$BW_DIR/run"
  case $BW_RUN in ''|*[!0-9]*) echo 'bootwright baseline: the server gave no run id' >&2; return 1 ;; esac
  echo "bootwright baseline: run $BW_RUN, $bw_count script(s)"
  BW_STOP=0
  while read -r bw_pos bw_sum bw_cont bw_tmo bw_kind bw_sid bw_name; do
    case $bw_pos in ''|'#'*) continue ;; esac
    bw_step </dev/null
  done < "$BW_DIR/steps"
  bw_post "report?run_id=$BW_RUN&finished=1" "$BW_DIR/empty" "$BW_DIR/run" </dev/null || { echo 'bootwright baseline: cannot report the end of the run' >&2; return 1; }
  read -r bw_id bw_state < "$BW_DIR/run"
  echo "bootwright baseline: run $BW_RUN $bw_state"
  [ "$bw_state" = succeeded ]
}

# Runs one step: fetch, check its SHA-256, run it with its interpreter and time limit, report.
bw_step() {
  bw_file="$BW_DIR/script-$bw_pos"
  bw_out="$BW_DIR/out-$bw_pos"
  bw_code=''
  bw_status=failed
  bw_t0=$(date +%s)
  if [ "$BW_STOP" = 1 ]; then
    bw_status=skipped
    echo 'not run: an earlier script failed' > "$bw_out"
  elif ! bw_get "script/$bw_pos" "$bw_file" 2> "$bw_out"; then
    echo 'the script could not be fetched' >> "$bw_out"
  else
    bw_got=$(sha256sum < "$bw_file")
    bw_got=\${bw_got%% *}
    if [ "$bw_got" != "$bw_sum" ]; then
      echo "not run: SHA-256 $bw_got differs from the expected $bw_sum" > "$bw_out"
    else
      case $bw_kind in
        sh) bw_exec sh "$bw_file" ;;
        bash) bw_need bash && bw_exec bash "$bw_file" ;;
        powershell) bw_need pwsh && mv "$bw_file" "$bw_file.ps1" && bw_exec pwsh -NoProfile -NonInteractive -File "$bw_file.ps1" ;;
        cloud-init)
          if [ -d /etc/cloud/cloud.cfg.d ]; then
            cp "$bw_file" "/etc/cloud/cloud.cfg.d/90-bootwright-$bw_pos.cfg" > "$bw_out" 2>&1 && bw_status=ok
            echo "installed as /etc/cloud/cloud.cfg.d/90-bootwright-$bw_pos.cfg (cloud-init applies it at the next boot)" >> "$bw_out"
          else
            echo 'not run: cloud-init is not installed (no /etc/cloud/cloud.cfg.d)' > "$bw_out"
          fi ;;
        *) bw_status=skipped; echo "not run: a $bw_kind script does not run on Linux" > "$bw_out" ;;
      esac
    fi
  fi
  bw_ms=$(( ($(date +%s) - bw_t0) * 1000 ))
  if [ "$bw_status" != ok ] && [ "$bw_status" != skipped ] && [ "$bw_cont" != 1 ]; then BW_STOP=1; fi
  tail -c ${MAX_OUTPUT_TAIL_CHARS} "$bw_out" > "$bw_out.tail" 2>/dev/null || cp "$bw_out" "$bw_out.tail"
  echo "bootwright baseline: [$bw_pos] $bw_name: $bw_status\${bw_code:+ (exit $bw_code)}"
  bw_post "report?run_id=$BW_RUN&position=$bw_pos&script_id=$bw_sid&status=$bw_status&exit_code=$bw_code&duration_ms=$bw_ms" "$bw_out.tail" "$BW_DIR/answer" \\
    || echo "bootwright baseline: could not report step $bw_pos" >&2
}

# An interpreter the step needs; a missing one fails the step with why.
bw_need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "not run: $1 is not installed" > "$bw_out"
  return 1
}

# Runs the script, output to $bw_out, within its time limit when timeout(1) is there. The limit hit:
# GNU timeout exits 124, busybox's 143 (killed by TERM), so 143 counts only once the time was up.
bw_exec() {
  if [ "$BW_TIMEOUT" = 1 ]; then timeout "$bw_tmo" "$@" > "$bw_out" 2>&1; else "$@" > "$bw_out" 2>&1; fi
  bw_code=$?
  if [ "$bw_code" = 0 ]; then bw_status=ok
  elif [ "$BW_TIMEOUT" = 1 ] && { [ "$bw_code" = 124 ] || { [ "$bw_code" = 143 ] && [ $(( $(date +%s) - bw_t0 )) -ge "$bw_tmo" ]; }; }; then bw_status=timeout
  else bw_status=failed; fi
}

bw_main "$@"
`;
}

/**
 * The PowerShell runner (Windows PowerShell 5.1 and PowerShell 7): JSON
 * through Invoke-RestMethod, each script written as UTF-8 without BOM and
 * checked with Get-FileHash before it runs, a time limit through
 * WaitForExit, results posted as ResultsReport.
 */
export function powershellRunner(runtimeUrl: string, label: string): string {
  return `# Bootwright baseline runner for ${oneLine(label)} (docs/baselines.md, "Runtime").
# Run it as Administrator:
#   powershell -NoProfile -ExecutionPolicy Bypass -Command "iex (irm -UseBasicParsing '<this URL>')"
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
try { [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12 } catch { }
$BwUrl = ${psQuote(runtimeUrl)}
$env:BOOTWRIGHT_INVENTORY_URL = "$BwUrl/inventory"
$BwMax = ${MAX_OUTPUT_TAIL_CHARS}
function Send-BwReport($Report) {
  $json = ConvertTo-Json -InputObject $Report -Depth 6 -Compress
  $bytes = [Text.Encoding]::UTF8.GetBytes($json)
  (Invoke-RestMethod -UseBasicParsing -Method Post -Uri "$BwUrl/results" -ContentType 'application/json; charset=utf-8' -Body $bytes).data
}
$steps = @((Invoke-RestMethod -UseBasicParsing -Uri "$BwUrl/scripts").data.scripts)
if ($steps.Count -eq 0) { Write-Output 'bootwright baseline: no baseline is assigned to this machine'; return }
$run = Send-BwReport @{ results = @() }
Write-Output "bootwright baseline: run $($run.run_id), $($steps.Count) script(s)"
$dir = Join-Path ([IO.Path]::GetTempPath()) ('bootwright-baseline-' + [guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $dir | Out-Null
$stop = $false
try {
  foreach ($s in $steps) {
    $status = 'failed'; $code = $null; $text = ''; $t0 = Get-Date
    if ($stop) { $status = 'skipped'; $text = 'not run: an earlier script failed' }
    elseif ($s.kind -ne 'powershell' -and $s.kind -ne 'batch') { $status = 'skipped'; $text = "not run: a $($s.kind) script does not run on Windows" }
    else {
      $ext = if ($s.kind -eq 'powershell') { '.ps1' } else { '.cmd' }
      $file = Join-Path $dir ('script-' + $s.position + $ext)
      [IO.File]::WriteAllBytes($file, (New-Object Text.UTF8Encoding $false).GetBytes([string]$s.content))
      $sum = (Get-FileHash -Algorithm SHA256 -LiteralPath $file).Hash.ToLowerInvariant()
      if ($sum -ne $s.sha256) { $text = "not run: SHA-256 $sum differs from the expected $($s.sha256)" }
      else {
        if ($s.kind -eq 'powershell') { $exe = 'powershell.exe'; $argv = @('-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', ('"' + $file + '"')) }
        else { $exe = 'cmd.exe'; $argv = @('/d', '/c', ('"' + $file + '"')) }
        $p = Start-Process -FilePath $exe -ArgumentList $argv -NoNewWindow -PassThru -RedirectStandardOutput "$file.out" -RedirectStandardError "$file.err"
        $null = $p.Handle
        if (-not $p.WaitForExit([int]$s.timeout_seconds * 1000)) { try { $p.Kill() } catch { }; $status = 'timeout' }
        else { $p.WaitForExit(); $code = [int]$p.ExitCode; if ($code -eq 0) { $status = 'ok' } }
        foreach ($part in @("$file.out", "$file.err")) { if (Test-Path -LiteralPath $part) { $text += [IO.File]::ReadAllText($part) } }
      }
    }
    if (($status -eq 'failed' -or $status -eq 'timeout') -and -not $s.continue_on_error) { $stop = $true }
    if ($text.Length -gt $BwMax) { $text = $text.Substring($text.Length - $BwMax) }
    $ms = [int]((Get-Date) - $t0).TotalMilliseconds
    Write-Output "bootwright baseline: [$($s.position)] $($s.name): $status"
    try {
      $null = Send-BwReport @{ run_id = $run.run_id; results = @(@{ position = $s.position; script_id = $s.script_id; status = $status; exit_code = $code; duration_ms = $ms; output_tail = $text }) }
    } catch { Write-Warning "bootwright baseline: could not report step $($s.position): $_" }
  }
} finally {
  Remove-Item -Recurse -Force -LiteralPath $dir -ErrorAction SilentlyContinue
}
$final = Send-BwReport @{ run_id = $run.run_id; results = @(); finished = $true }
Write-Output "bootwright baseline: run $($final.run_id) $($final.status)"
if ($final.status -ne 'succeeded') { exit 1 }
`;
}
