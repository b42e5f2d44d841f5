import { Type, type Static } from 'typebox';

/*
 * The DHCP API's contract: the TypeBox schemas and constants of
 * /api/v1/services/dhcp, /services/archmap, /leases, /dhcp/reservations and
 * /access. It imports nothing but typebox and other contracts (a test checks
 * it) so the renderer can import it too (alias @contracts/dhcp): the modes,
 * option types, limits and shapes are written once for the server, the API
 * document and the UI. Rules that need code (the printable-text and MAC
 * patterns of the ground layer) are added by the routes (dhcp/*-routes.ts).
 */

/** Per interface: `server` hands out addresses and boot information, `proxy` boot information only, `off` nothing. */
export const DHCP_MODES = ['server', 'proxy', 'off'] as const;
export type DhcpMode = (typeof DHCP_MODES)[number];

/** `open`: everyone except blacklisted MACs is answered; `whitelist`: only whitelisted MACs. */
export const ACCESS_MODES = ['open', 'whitelist'] as const;
/** Router Advertisements with router lifetime 0 (docs/dhcp.md, "IPv6 Router Advertisements"). */
export const IPV6_RA_MODES = ['auto', 'always', 'off'] as const;
export type Ipv6RaMode = (typeof IPV6_RA_MODES)[number];
export type AccessMode = (typeof ACCESS_MODES)[number];

/** The two MAC lists of /access/<list>. */
export const ACCESS_LISTS = ['blacklist', 'whitelist'] as const;
export type AccessListName = (typeof ACCESS_LISTS)[number];

/** Value types an operator can give a custom option (RFC 2132 §2 data formats). */
export const CUSTOM_OPTION_TYPES = ['ip', 'ips', 'string', 'uint8', 'uint16', 'uint32', 'bool', 'hex'] as const;
export type CustomOptionType = (typeof CUSTOM_OPTION_TYPES)[number];

export const LEASE_STATES = ['active', 'expired'] as const;
export type LeaseState = (typeof LEASE_STATES)[number];

/** The longest boot file path that fits the BOOTP `file` field (128 bytes with its NUL, RFC 2131 §2). */
export const MAX_BOOT_PATH = 127;
/** Lease times: 10 s to a year. */
export const MIN_LEASE_SECONDS = 10;
export const MAX_LEASE_SECONDS = 31_536_000;

/**
 * The rogue-DHCP probe's listening time (settings and POST /dhcp/probe). The
 * default is 3.5 s, not 2: dnsmasq (the server of many routers) pings an
 * address for 3 s before it first offers it, so a shorter probe misses it
 * (docs/dhcp.md, "Rogue-DHCP guard").
 */
export const MIN_PROBE_TIMEOUT_MS = 100;
export const MAX_PROBE_TIMEOUT_MS = 10_000;
export const DEFAULT_PROBE_TIMEOUT_MS = 3_500;

const Timestamp = Type.String({ format: 'date-time' });
const Ip = Type.String({ minLength: 7, maxLength: 15, description: 'IPv4 address' });

// ---- settings (/services/dhcp) ----

export const DhcpInterfaceSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: 'Network interface name, e.g. eth1' }),
    mode: Type.Enum([...DHCP_MODES], {
      description: '`server`: addresses and boot information; `proxy`: boot information only, beside another DHCP server; `off`',
    }),
  },
  { additionalProperties: false },
);

export const CustomOptionSchema = Type.Object(
  {
    code: Type.Integer({ minimum: 1, maximum: 254, description: 'DHCP option code (RFC 2132 and later)' }),
    type: Type.Enum([...CUSTOM_OPTION_TYPES], { description: 'How `value` is encoded' }),
    value: Type.Union([Type.String({ maxLength: 1024 }), Type.Integer(), Type.Boolean(), Type.Array(Ip, { maxItems: 63 })], {
      description: 'ip: "a.b.c.d"; ips: ["a.b.c.d",…]; string; uint8/16/32: integer; bool: true/false; hex: "0a1b…" (colons allowed)',
    }),
  },
  { additionalProperties: false },
);

export const RangeSchema = Type.Object(
  {
    start: Ip,
    end: Ip,
  },
  { additionalProperties: false },
);

/** `router: "none"` sends no option 3 (a segment without a gateway; the installer then asks whether to continue). */
export const ROUTER_NONE = 'none';

/**
 * A subnet's fields and their defaults. Only `subnet` and `ranges` must be
 * given; every other field has a default (null or empty) that the server
 * fills in when it stores the subnet, so the stored and returned subnet
 * always has every field.
 */
const SubnetFields = {
  subnet: Type.String({ minLength: 9, maxLength: 18, description: 'IPv4 CIDR, e.g. 192.168.50.0/24' }),
  ranges: Type.Array(RangeSchema, { maxItems: 64, description: 'Dynamic pools (inclusive); none means reservations only' }),
  lease_time_seconds: Type.Union([Type.Integer({ minimum: MIN_LEASE_SECONDS, maximum: MAX_LEASE_SECONDS }), Type.Null()], {
    description: 'Lease time in this subnet; null (the default) uses default_lease_time_seconds',
  }),
  router: Type.Union([Ip, Type.Literal(ROUTER_NONE), Type.Null()], {
    description:
      'Option 3. null (the default): our own address on this subnet (the relay\'s address for a relayed subnet), as dnsmasq does; "none": no option 3; an address: that gateway',
  }),
  dns_servers: Type.Union([Type.Array(Ip, { maxItems: 8 }), Type.Null()], {
    description: 'Option 6. null (the default): our address on this subnet while the DNS service runs, else none; []: none',
  }),
  domain_name: Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()], {
    description: 'Option 15. null (the default): the DNS service\'s local domain when it is known',
  }),
  ntp_servers: Type.Array(Ip, { maxItems: 8, description: 'Option 42; default none' }),
  options: Type.Array(CustomOptionSchema, { maxItems: 64, description: 'Further options; they override built-in ones of the same code. Default none' }),
};

/** A subnet as stored and returned: every field present. */
export const SubnetSchema = Type.Object(SubnetFields, { additionalProperties: false });

/** A subnet as a PUT may give it: `subnet` and `ranges`, the rest optional (omitted fields take their default). */
export const SubnetInputSchema = Type.Object(
  {
    subnet: SubnetFields.subnet,
    ranges: SubnetFields.ranges,
    lease_time_seconds: Type.Optional(SubnetFields.lease_time_seconds),
    router: Type.Optional(SubnetFields.router),
    dns_servers: Type.Optional(SubnetFields.dns_servers),
    domain_name: Type.Optional(SubnetFields.domain_name),
    ntp_servers: Type.Optional(SubnetFields.ntp_servers),
    options: Type.Optional(SubnetFields.options),
  },
  { additionalProperties: false },
);

/** The defaults of a subnet's optional fields. */
export function subnetDefaults(): Omit<Static<typeof SubnetSchema>, 'subnet' | 'ranges'> {
  return { lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] };
}

const DhcpSettingsFields = {
  interfaces: Type.Array(DhcpInterfaceSchema, {
    maxItems: 64,
    description: 'Mode per interface; interfaces not listed are off',
  }),
  subnets: Type.Array(SubnetSchema, { maxItems: 256 }),
  default_lease_time_seconds: Type.Integer({ minimum: MIN_LEASE_SECONDS, maximum: MAX_LEASE_SECONDS, description: 'Lease time where a subnet sets none' }),
  authoritative: Type.Boolean({
    description: 'NAK requests for addresses that are wrong for the client\'s network or unknown to us (RFC 2131 §4.3.2); false stays silent',
  }),
  ping_check: Type.Boolean({ description: 'Ping an address before offering it; skip it when something answers' }),
  decline_quarantine_seconds: Type.Integer({
    minimum: 0,
    maximum: 2_592_000,
    description: 'How long an address a client DECLINEd stays out of the pool',
  }),
  access_mode: Type.Enum([...ACCESS_MODES], {
    description: '`open`: everyone except the blacklist; `whitelist`: only whitelisted MACs get DHCP, proxyDHCP and boot files',
  }),
  rogue_guard: Type.Boolean({
    description: 'Before serving an interface in server mode, probe it for another DHCP server (a DISCOVER, then wait rogue_probe_timeout_ms); false skips the probe and its wait',
  }),
  rogue_probe_timeout_ms: Type.Integer({
    minimum: MIN_PROBE_TIMEOUT_MS,
    maximum: MAX_PROBE_TIMEOUT_MS,
    description: 'How long the rogue-DHCP probe listens for OFFERs: the start of server mode waits this long when nothing answers',
  }),
  ipv6_ra: Type.Enum([...IPV6_RA_MODES], {
    description: 'Router Advertisements with router lifetime 0, no prefix, M=0 and O=0, so iPXE ends its IPv6 autoconfiguration at once instead of waiting for its timeout: `auto` on server-mode interfaces (stands down where another router advertises), `always` on proxy-mode ones too, `off` never',
  }),
  force: Type.Boolean({
    description: 'Serve in server mode even where the probe found another DHCP server (it is still reported: event dhcp.foreign_server, GET /dhcp/guard)',
  }),
};

/** One property map builds the stored value, the response and the PUT body. */
export const DhcpSettingsSchema = Type.Object(DhcpSettingsFields, { additionalProperties: false });
/**
 * The PUT body: every top-level field optional (an omitted one keeps its
 * stored value); `subnets`, when given, replaces the list, and inside a
 * subnet an omitted field takes its default (subnets have no identity to
 * keep a previous value by).
 */
export const DhcpSettingsPatchSchema = Type.Object(
  {
    ...(Object.fromEntries(Object.entries(DhcpSettingsFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
      [K in Exclude<keyof typeof DhcpSettingsFields, 'subnets'>]: ReturnType<typeof Type.Optional<(typeof DhcpSettingsFields)[K]>>;
    }),
    subnets: Type.Optional(Type.Array(SubnetInputSchema, { maxItems: 256 })),
  },
  { additionalProperties: false },
);

export type DhcpSettings = Static<typeof DhcpSettingsSchema>;
export type DhcpSettingsPatch = Static<typeof DhcpSettingsPatchSchema>;
export type DhcpSubnet = Static<typeof SubnetSchema>;
export type DhcpSubnetInput = Static<typeof SubnetInputSchema>;
export type DhcpRange = Static<typeof RangeSchema>;
export type CustomOption = Static<typeof CustomOptionSchema>;
export type DhcpInterface = Static<typeof DhcpInterfaceSchema>;

// ---- architecture map (/services/archmap) ----

const BootPath = Type.String({ minLength: 1, maxLength: MAX_BOOT_PATH });

/** One option 93 code and its boot files; `name` is printable text (the routes add the pattern). */
export const ArchmapEntrySchema = Type.Object(
  {
    code: Type.Integer({ minimum: 0, maximum: 65535, description: 'Option 93 client architecture type (IANA registry, RFC 4578)' }),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    boot_file: Type.Union([BootPath, Type.Null()], {
      description: 'First-stage loader for PXE (TFTP) clients, relative to the boot root; null: no boot file',
    }),
    http_boot_url_path: Type.Union([BootPath, Type.Null()], {
      description: 'For UEFI HTTP-boot types: file under /boot/ handed out as an http URL; null: boot_file is used',
    }),
    alternatives: Type.Array(BootPath, { maxItems: 16, description: 'Other builds that also work (informational)' }),
  },
  { additionalProperties: false },
);
export const MAX_ARCHMAP_ENTRIES = 256;

export type ArchmapEntry = Static<typeof ArchmapEntrySchema>;
export interface ArchmapView {
  entries: ArchmapEntry[];
}

// ---- leases (/leases) ----

export const LeaseStateSchema = Type.Union([Type.Literal('active'), Type.Literal('expired')]);

export const LeaseSchema = Type.Object(
  {
    mac: Type.String(),
    ip: Type.String(),
    hostname: Type.Union([Type.String(), Type.Null()]),
    state: LeaseStateSchema,
    subnet: Type.Union([Type.String(), Type.Null()], { description: 'Configured subnet holding the address; null when none does any more' }),
    starts_at: Timestamp,
    expires_at: Timestamp,
    client_id: Type.Union([Type.String(), Type.Null()], { description: 'Option 61 as hex' }),
    vendor_class: Type.Union([Type.String(), Type.Null()]),
    arch: Type.Union([Type.Integer(), Type.Null()], { description: 'Option 93 architecture type' }),
    arch_name: Type.Union([Type.String(), Type.Null()], { description: 'Its name in the architecture map (e.g. "x64 UEFI"), or "type <n>" for a code the map lacks' }),
    reserved: Type.Boolean({ description: 'The address is this MAC\'s reservation' }),
  },
  { $id: 'Lease' },
);
/** A lease as the API shows it. */
export type LeaseView = Static<typeof LeaseSchema>;

const StatsCounts = {
  size: Type.Integer(),
  used: Type.Integer({ description: 'Active leases' }),
  reserved: Type.Integer({ description: 'Reserved addresses without an active lease' }),
  quarantined: Type.Integer({ description: 'Declined addresses kept out of the pool' }),
  free: Type.Integer(),
  utilisation_percent: Type.Number({ description: 'used / size × 100, one decimal' }),
  expired: Type.Integer({ description: 'Expired leases (their addresses are free again)' }),
};

export const RangeStatsSchema = Type.Object({ subnet: Type.String(), start: Type.String(), end: Type.String(), ...StatsCounts });
export const LeaseStatsSchema = Type.Object({
  overall: Type.Object({ leases: Type.Integer({ description: 'Lease records, active and expired' }), ...StatsCounts }),
  ranges: Type.Array(RangeStatsSchema),
});
export type RangeStats = Static<typeof RangeStatsSchema>;
export type LeaseStats = Static<typeof LeaseStatsSchema>;

/** The result of deleting one MAC's lease in a batch. */
export const LeaseBatchResultSchema = Type.Object({ mac: Type.String(), ok: Type.Boolean(), error: Type.Optional(Type.String()), code: Type.Optional(Type.String()) });
export type LeaseBatchResult = Static<typeof LeaseBatchResultSchema>;
export const MAX_LEASE_BATCH = 1000;

// ---- reservations (/dhcp/reservations) ----

export const ReservationSchema = Type.Object(
  {
    id: Type.Integer(),
    mac: Type.String(),
    ip: Type.String(),
    hostname: Type.Union([Type.String(), Type.Null()]),
    boot_file: Type.Union([Type.String(), Type.Null()], { description: 'Overrides the architecture map\'s first-stage file for this client' }),
    options: Type.Array(CustomOptionSchema),
    host_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The host record this reservation belongs to (set through the hosts API)' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'DhcpReservation' },
);
/** A fixed address for one MAC; the pool never hands it to anyone else. */
export type DhcpReservation = Static<typeof ReservationSchema>;

/** The writable fields of a reservation but the MAC (its pattern is the ground layer's; the routes add it). */
export const ReservationFields = {
  ip: Type.String({ minLength: 7, maxLength: 15, description: 'IPv4 address inside a configured subnet' }),
  hostname: Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()]),
  boot_file: Type.Union([BootPath, Type.Null()]),
  options: Type.Array(CustomOptionSchema, { maxItems: 64 }),
};

export interface ReservationInput {
  mac: string;
  ip: string;
  hostname?: string | null;
  boot_file?: string | null;
  options?: CustomOption[];
}
export type ReservationPatch = Partial<ReservationInput>;

// ---- bulk import (/dhcp/reservations/import; the hosts import shares these pieces) ----

/** `create` refuses rows whose MAC is already stored; `upsert` updates the stored row of that MAC. */
export const IMPORT_MODES = ['create', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
/** Bodies of an import may be larger than other requests' (docs/api.md): 16 MiB. */
export const IMPORT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/** Import problems listed in one answer; the count says how many there were in all. */
export const MAX_IMPORT_PROBLEMS = 1000;

export const ImportQuerySchema = Type.Object(
  {
    mode: Type.Optional(Type.Unsafe<ImportMode>(Type.Union(IMPORT_MODES.map((mode) => Type.Literal(mode)), { default: 'create', description: 'create: refuse MACs already stored; upsert: update them' }))),
    dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Check everything and report; change nothing' })),
  },
  { additionalProperties: false },
);
export type ImportQuery = Static<typeof ImportQuerySchema>;

/** One problem of one row: every row is checked before anything is written. */
export const ImportProblemSchema = Type.Object(
  {
    row: Type.Integer({ description: '1-based data row (the CSV header and JSON array index not counted: the first row is 1); 0 for the file as a whole' }),
    line: Type.Union([Type.Integer(), Type.Null()], { description: 'CSV: the file line the row ends on (the header is line 1); JSON: null' }),
    field: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
  },
  { $id: 'ImportProblem' },
);
export type ImportProblem = Static<typeof ImportProblemSchema>;

/** The answer of an import: a dry run's report, or what was written. */
export const ImportReportSchema = Type.Object(
  {
    dry_run: Type.Boolean(),
    mode: Type.Unsafe<ImportMode>(Type.Union(IMPORT_MODES.map((mode) => Type.Literal(mode)))),
    rows: Type.Integer({ description: 'Data rows in the request' }),
    created: Type.Integer({ description: 'Rows that create (dry run: would create)' }),
    updated: Type.Integer({ description: 'Rows that update a stored row (upsert)' }),
    problems: Type.Array(ImportProblemSchema, { description: `At most ${MAX_IMPORT_PROBLEMS}; any problem means nothing is written` }),
    problem_count: Type.Integer(),
  },
  { $id: 'ImportReport' },
);
export type ImportReport = Static<typeof ImportReportSchema>;

/** Columns of the reservations CSV; the header row names them, in any order. */
export const RESERVATION_IMPORT_COLUMNS = ['mac', 'ip', 'hostname', 'boot_file'] as const;
export const MAX_RESERVATION_IMPORT_ROWS = 50_000;

/** One reservation of a JSON import (the CSV columns; options are set through the API one by one). */
export const ReservationImportRowSchema = Type.Object(
  {
    mac: Type.String({ maxLength: 64 }),
    ip: Type.String({ maxLength: 64 }),
    hostname: Type.Optional(Type.Union([Type.String({ maxLength: 253 }), Type.Null()])),
    boot_file: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ReservationImportRow = Static<typeof ReservationImportRowSchema>;

// ---- access control (/access) ----

export const AccessEntrySchema = Type.Object(
  { id: Type.Integer(), mac: Type.String(), comment: Type.String(), created_at: Timestamp },
  { $id: 'AccessEntry' },
);
export type AccessEntryView = Static<typeof AccessEntrySchema>;
export const MAX_ACCESS_COMMENT = 500;

/** A device refused in whitelist mode. */
export const UnauthorizedDeviceSchema = Type.Object(
  {
    id: Type.Integer(),
    mac: Type.String(),
    first_seen: Timestamp,
    last_seen: Timestamp,
    count: Type.Integer({ description: 'Refused requests' }),
    vendor_class: Type.Union([Type.String(), Type.Null()]),
    arch: Type.Union([Type.Integer(), Type.Null()], { description: 'Option 93 architecture type' }),
    hostname: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'UnauthorizedDevice' },
);
export type UnauthorizedDeviceView = Static<typeof UnauthorizedDeviceSchema>;

/** Which unauthorized records to move to a list. */
export const MoveBodySchema = Type.Union(
  [
    Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000, uniqueItems: true }) }, { additionalProperties: false }),
  ],
  { description: '{"id": n} or {"ids": [n, …]}' },
);
export type MoveBody = Static<typeof MoveBodySchema>;

/** Result of moving one unauthorized record to a list. */
export const MoveResultSchema = Type.Object({
  id: Type.Integer(),
  ok: Type.Boolean(),
  mac: Type.Optional(Type.String()),
  entry_id: Type.Optional(Type.Integer({ description: 'The list entry the device now has' })),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
});
export type MoveResult = Static<typeof MoveResultSchema>;

// ---- rogue-DHCP guard (/dhcp/probe, /dhcp/guard) ----

/** Another DHCP server that answered a probe (or that a client named while we served). */
export const ForeignDhcpServerSchema = Type.Object(
  {
    server_id: Type.String({ description: 'Option 54 of its OFFER (its source address when it sent none)' }),
    source_ip: Type.String({ description: 'The address its OFFER came from' }),
    mac: Type.Union([Type.String(), Type.Null()], {
      description: 'Its MAC from this machine\'s neighbour (ARP) table when the kernel has it; UDP sockets do not see Ethernet headers, so often null',
    }),
    offered_ip: Type.Union([Type.String(), Type.Null()], { description: 'The address it offered our probe (yiaddr)' }),
    subnet_mask: Type.Union([Type.String(), Type.Null()]),
    router: Type.Union([Type.String(), Type.Null()], { description: 'Option 3 of its OFFER (first router)' }),
    lease_seconds: Type.Union([Type.Integer(), Type.Null()]),
  },
  // No $id: it appears twice in one response (GET /dhcp/guard), which a named schema cannot.
  { additionalProperties: false },
);
export type ForeignDhcpServer = Static<typeof ForeignDhcpServerSchema>;

export const DhcpProbeBodySchema = Type.Object(
  {
    interface: Type.String({ minLength: 1, maxLength: 64, description: 'Interface to probe (it needs an IPv4 address)' }),
    timeout_ms: Type.Optional(Type.Integer({ minimum: MIN_PROBE_TIMEOUT_MS, maximum: MAX_PROBE_TIMEOUT_MS, description: 'Listening time; default rogue_probe_timeout_ms' })),
  },
  { additionalProperties: false },
);
export type DhcpProbeBody = Static<typeof DhcpProbeBodySchema>;

export const DhcpProbeResultSchema = Type.Object({
  interface: Type.String(),
  probed_at: Timestamp,
  foreign: Type.Array(ForeignDhcpServerSchema, { description: 'Other DHCP servers that offered an address; empty: none answered' }),
});
export type DhcpProbeResult = Static<typeof DhcpProbeResultSchema>;

/**
 * What the guard decided for a server-mode interface at the last start:
 * `clear` (nobody else answered), `blocked` (another server answered: not
 * served), `forced` (another server answered, served anyway: `force`),
 * `not_probed` (guard off, loopback, or the probe could not run: see message).
 */
export const GUARD_STATES = ['clear', 'blocked', 'forced', 'not_probed'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

export const GuardInterfaceSchema = Type.Object({
  interface: Type.String(),
  state: Type.Unsafe<GuardState>(Type.Union(GUARD_STATES.map((state) => Type.Literal(state)))),
  probed_at: Type.Union([Timestamp, Type.Null()]),
  foreign: Type.Array(ForeignDhcpServerSchema),
  message: Type.String({ description: 'What happened and what to do (e.g. switch the interface to proxy mode)' }),
});
export type GuardInterface = Static<typeof GuardInterfaceSchema>;

/** A foreign server noticed while serving: a client REQUEST naming it (option 54), or the periodic probe. */
export const ForeignSightingSchema = Type.Object({
  interface: Type.Union([Type.String(), Type.Null()], { description: 'The served interface it was seen on; null when a broadcast could not be placed' }),
  server_id: Type.String(),
  how: Type.Unsafe<'client_request' | 'probe'>(Type.Union([Type.Literal('client_request'), Type.Literal('probe')])),
  client_mac: Type.Union([Type.String(), Type.Null()], { description: 'The client that named it (client_request)' }),
  server: Type.Union([ForeignDhcpServerSchema, Type.Null()], { description: 'Its OFFER (probe)' }),
  first_seen: Timestamp,
  last_seen: Timestamp,
  count: Type.Integer(),
});
export type ForeignSighting = Static<typeof ForeignSightingSchema>;

export const DhcpGuardStatusSchema = Type.Object({
  interfaces: Type.Array(GuardInterfaceSchema, { description: 'Server-mode interfaces at the last start of the DHCP service' }),
  sightings: Type.Array(ForeignSightingSchema, { description: 'Foreign servers seen while serving (the last 24 h, newest first)' }),
});
export type DhcpGuardStatus = Static<typeof DhcpGuardStatusSchema>;
