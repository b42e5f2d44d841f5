import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import { AppError, conflict, notFound, type FieldError } from '../core/errors.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { BmcTarget } from './bmc-client.js';
import { BMC_SORT_FIELDS, configView, type BmcConfig, type BmcConfigInput, type BmcConfigView } from './bmc-config-types.js';
import { checkBmcInput, type CheckedBmcFields } from './bmc-config-validation.js';
import { parseBmcCsv } from './bmc-csv.js';
import type { HostDirectorySource } from './host-directory.js';
import type { BmcImportResult as ImportReport, CsvProblem } from './power-contract.js';
import type { SecretBox } from '../core/secret-box.js';

/** AAD of sealed BMC passwords: a sealed value is good for this use only. */
const PASSWORD_PURPOSE = 'bmc-config-password';

export interface BmcListFilter {
  protocol?: BmcConfig['protocol'];
  host_id?: number;
  power_state?: NonNullable<BmcConfig['power_state']>;
}

/** POST /bmc/configs/import's answer; with partial=false any problem means nothing was imported. */
export type { BmcImportResult as ImportReport } from './power-contract.js';

function prefixed(prefix: string, errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ field: `${prefix}${error.field}`, message: error.message }));
}

function describe(errors: readonly FieldError[]): string {
  return errors.map((error) => `${error.field}: ${error.message}`).join('; ');
}

/** The BMC configs: CRUD, sealed passwords, CSV import. */
export class BmcConfigs {
  private readonly rows: Collection<BmcConfig>;
  private readonly secrets: SecretBox;
  private readonly hosts: HostDirectorySource;

  constructor(deps: { store: Store; secrets: SecretBox; hosts: HostDirectorySource }) {
    this.rows = deps.store.collection<BmcConfig>('bmc_configs');
    this.secrets = deps.secrets;
    this.hosts = deps.hosts;
  }

  list(query: ListQueryInput & BmcListFilter): ListPage<BmcConfigView> {
    const rows = this.rows.filter(
      (row) =>
        (query.protocol === undefined || row.protocol === query.protocol) &&
        (query.host_id === undefined || row.host_id === query.host_id) &&
        (query.power_state === undefined || row.power_state === query.power_state),
    );
    const page = paginate(rows, query, {
      sortable: BMC_SORT_FIELDS,
      defaultSort: 'id',
      searchText: (row) => [row.name, row.address, row.vendor, row.model, row.username],
    });
    return { data: page.data.map(configView), meta: page.meta };
  }

  /** Every config, stored form (the alert source reads last_error). */
  all(): readonly BmcConfig[] {
    return this.rows.all();
  }

  get(id: number): BmcConfig | undefined {
    return this.rows.get(id);
  }

  require(id: number): BmcConfig {
    const row = this.rows.get(id);
    if (!row) throw notFound('BMC config', id);
    return row;
  }

  /** The config linked to a host, if any. */
  forHost(hostId: number): BmcConfig | undefined {
    return this.rows.find((row) => row.host_id === hostId);
  }

  /** The checks of create (existingId undefined) or of an update of that config, writing nothing (the kit import checks everything first). */
  validate(input: BmcConfigInput, existingId?: number): void {
    this.check(input, existingId === undefined ? undefined : this.require(existingId), 'body.');
  }

  async create(input: BmcConfigInput): Promise<BmcConfig> {
    const checked = this.check(input, undefined, 'body.');
    return this.rows.insert({ ...emptyState(), ...checked.fields, password_secret: await this.seal(checked.password) });
  }

  async update(id: number, input: BmcConfigInput): Promise<BmcConfig> {
    const existing = this.require(id);
    const checked = this.check(input, existing, 'body.');
    const patch: Partial<BmcConfig> = { ...checked.fields };
    if (checked.password !== undefined) patch.password_secret = await this.seal(checked.password);
    // A new address or protocol makes what we knew about the old BMC stale.
    if (checked.fields.address !== existing.address || checked.fields.protocol !== existing.protocol || checked.fields.port !== existing.port) {
      Object.assign(patch, emptyState());
    }
    return (await this.rows.update(id, patch))!;
  }

  async remove(id: number): Promise<BmcConfig> {
    const row = await this.rows.remove(id);
    if (!row) throw notFound('BMC config', id);
    return row;
  }

  /** Records what the last conversation with the BMC taught us. */
  async recordState(id: number, patch: Partial<Pick<BmcConfig, 'power_state' | 'vendor' | 'model' | 'last_checked_at' | 'last_error'>>): Promise<BmcConfig | undefined> {
    return this.rows.update(id, patch);
  }

  /** Login details with the password unsealed, for one conversation. */
  async target(config: BmcConfig): Promise<BmcTarget> {
    return {
      protocol: config.protocol,
      address: config.address,
      port: config.port,
      username: config.username,
      password: config.password_secret === null ? '' : await this.secrets.decrypt(config.password_secret, PASSWORD_PURPOSE),
      verifyTls: config.verify_tls,
      cipherSuite: config.cipher_suite,
      privilege: config.privilege,
    };
  }

  /**
   * Imports configs from CSV. Every row is checked first (and against the
   * others in the file); without `partial` one bad row means nothing is
   * imported (400 listing every problem with its line), with `partial` the
   * good rows are imported and the bad ones reported.
   */
  async importCsv(text: string, partial: boolean): Promise<ImportReport> {
    const parsed = parseBmcCsv(text);
    const problems: CsvProblem[] = [...parsed.problems];
    const accepted: { line: number; fields: CheckedBmcFields; password: string | undefined }[] = [];
    const hosts = this.hosts();
    const seen: { id: number; name: string; host_id: number | null }[] = this.rows.all().map((row) => ({ id: row.id, name: row.name, host_id: row.host_id }));
    let pseudoId = -1;
    for (const row of parsed.rows) {
      const input: BmcConfigInput = { ...row.input };
      const rowProblems: CsvProblem[] = [];
      if (row.hostMac) {
        const host = hosts?.findByMac(row.hostMac);
        if (!host) rowProblems.push({ line: row.line, column: 'host_mac', message: `no host has MAC ${row.hostMac}${hosts ? '' : ' (hosts are not available)'}` });
        else input.host_id = host.id;
      }
      const checked = checkBmcInput(input, { others: seen, hosts });
      for (const error of [...checked.errors, ...checked.conflicts]) {
        // A duplicate within the file or with a stored config is a problem of this line.
        rowProblems.push({ line: row.line, column: error.field === 'host_id' && row.hostMac ? 'host_mac' : error.field, message: error.message });
      }
      if (rowProblems.length > 0) {
        problems.push(...rowProblems);
        continue;
      }
      seen.push({ id: pseudoId--, name: checked.fields.name, host_id: checked.fields.host_id });
      accepted.push({ line: row.line, fields: checked.fields, password: checked.password });
    }
    problems.sort((a, b) => a.line - b.line);
    if (parsed.fatal || (problems.length > 0 && !partial)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `the CSV file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported: ${problems
          .slice(0, 5)
          .map((problem) => `line ${problem.line}${problem.column ? ` (${problem.column})` : ''}: ${problem.message}`)
          .join('; ')}${problems.length > 5 ? '; …' : ''}`,
        { details: problems.map((problem) => ({ field: `csv.line${problem.line}${problem.column ? `.${problem.column}` : ''}`, message: problem.message })) },
      );
    }
    const imported: BmcConfigView[] = [];
    for (const row of accepted) {
      const stored = await this.rows.insert({ ...emptyState(), ...row.fields, password_secret: await this.seal(row.password) });
      imported.push(configView(stored));
    }
    return { imported, errors: problems, rows: parsed.dataRows };
  }

  private check(input: BmcConfigInput, existing: BmcConfig | undefined, prefix: string) {
    const checked = checkBmcInput(input, { ...(existing ? { existing } : {}), others: this.rows.all(), hosts: this.hosts() });
    if (checked.errors.length > 0) {
      const errors = prefixed(prefix, checked.errors);
      throw new AppError('VALIDATION_FAILED', describe(errors), { details: errors });
    }
    if (checked.conflicts.length > 0) {
      const conflicts = prefixed(prefix, checked.conflicts);
      throw conflict(describe(conflicts), conflicts);
    }
    return checked;
  }

  private async seal(password: string | undefined): Promise<string | null> {
    if (password === undefined || password === '') return null;
    return this.secrets.encrypt(password, PASSWORD_PURPOSE);
  }
}

function emptyState(): Pick<BmcConfig, 'power_state' | 'vendor' | 'model' | 'last_checked_at' | 'last_error'> {
  return { power_state: null, vendor: null, model: null, last_checked_at: null, last_error: null };
}
