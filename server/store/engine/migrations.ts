import { demoAgentSettings } from '../../../contracts/console/agent-settings.js';

/** A text as an SQL literal, for the constants a migration writes. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The schema of the store, one migration per version. A migration runs once, in the
 * transaction that also raises `PRAGMA user_version` to its number.
 *
 * Inventory rows carry `seq INTEGER PRIMARY KEY`, assigned in the list's default order
 * (created_at, then id) when an organization's data is written. Every index then ends in that
 * order implicitly, so a filtered page is a walk along one index with no sort, and paging deep
 * into a list touches only index entries. The `(org_id)` indexes serve the unfiltered lists.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE organizations (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('local', 'replica')),
    is_demo INTEGER NOT NULL DEFAULT 0,
    remote_url TEXT,
    remote_key_sealed BLOB,
    enrollment_secret_sealed BLOB,
    signing_key_sealed BLOB,
    certificate_pem TEXT,
    created_at TEXT NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    label TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX api_keys_org ON api_keys (org_id);

  CREATE TABLE endpoints (
    seq INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    hostname TEXT NOT NULL,
    ip TEXT,
    mac_address TEXT,
    os_name TEXT NOT NULL,
    os_version TEXT,
    os_family TEXT NOT NULL,
    os_vendor TEXT,
    os_architecture TEXT,
    agent_id TEXT,
    agent_version TEXT,
    has_agent INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX endpoints_id ON endpoints (org_id, id);
  CREATE INDEX endpoints_org ON endpoints (org_id);
  CREATE INDEX endpoints_os_family ON endpoints (org_id, os_family);
  CREATE INDEX endpoints_has_agent ON endpoints (org_id, has_agent);
  CREATE INDEX endpoints_os_family_has_agent ON endpoints (org_id, os_family, has_agent);
  CREATE INDEX endpoints_updated ON endpoints (org_id, updated_ms);

  CREATE TABLE remediation_targets (
    seq INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    endpoint_id TEXT,
    target_type TEXT NOT NULL,
    vendor TEXT,
    product TEXT,
    version TEXT,
    install_path TEXT,
    package_name TEXT,
    package_manager TEXT,
    status TEXT NOT NULL,
    source TEXT NOT NULL,
    associated_cves TEXT NOT NULL,
    highest_cvss_score REAL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX remediation_targets_id ON remediation_targets (org_id, id);
  CREATE INDEX remediation_targets_org ON remediation_targets (org_id);
  CREATE INDEX remediation_targets_endpoint ON remediation_targets (org_id, endpoint_id);
  CREATE INDEX remediation_targets_type ON remediation_targets (org_id, target_type);
  CREATE INDEX remediation_targets_status ON remediation_targets (org_id, status);
  CREATE INDEX remediation_targets_type_status ON remediation_targets (org_id, target_type, status);
  CREATE INDEX remediation_targets_updated ON remediation_targets (org_id, updated_ms);

  CREATE TABLE scopes (
    seq INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    subject_filter TEXT NOT NULL,
    endpoint_filter TEXT NOT NULL,
    finding_filter TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX scopes_id ON scopes (org_id, id);
  CREATE INDEX scopes_org ON scopes (org_id);
  CREATE INDEX scopes_status ON scopes (org_id, status);
  CREATE INDEX scopes_updated ON scopes (org_id, updated_ms);

  -- A CVE identifier is stored once however many findings name it.
  CREATE TABLE cves (
    id INTEGER PRIMARY KEY,
    cve_id TEXT NOT NULL UNIQUE COLLATE NOCASE
  );

  -- Title, description and solution of a finding are the CVE's text: stored once per distinct text.
  CREATE TABLE finding_texts (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT,
    solution TEXT
  );

  CREATE TABLE findings (
    seq INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    endpoint_id TEXT,
    remediation_target_id TEXT,
    cve_ref INTEGER NOT NULL REFERENCES cves(id),
    text_ref INTEGER NOT NULL REFERENCES finding_texts(id),
    severity TEXT NOT NULL,
    cvss_score REAL,
    is_kev INTEGER NOT NULL,
    status TEXT NOT NULL,
    source TEXT NOT NULL,
    first_detected_at TEXT NOT NULL,
    remediated_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX findings_id ON findings (org_id, id);
  CREATE INDEX findings_org ON findings (org_id);
  CREATE INDEX findings_endpoint ON findings (org_id, endpoint_id);
  CREATE INDEX findings_target ON findings (org_id, remediation_target_id);
  CREATE INDEX findings_cve ON findings (org_id, cve_ref);
  CREATE INDEX findings_severity ON findings (org_id, severity);
  CREATE INDEX findings_status ON findings (org_id, status);
  CREATE INDEX findings_kev ON findings (org_id, is_kev);
  CREATE INDEX findings_severity_status ON findings (org_id, severity, status);
  CREATE INDEX findings_severity_kev ON findings (org_id, severity, is_kev);
  CREATE INDEX findings_status_kev ON findings (org_id, status, is_kev);
  CREATE INDEX findings_severity_status_kev ON findings (org_id, severity, status, is_kev);
  CREATE INDEX findings_updated ON findings (org_id, updated_ms);
  `,
  // Sync state of a replica: one row per organization, written in the sync's own transaction.
  `
  CREATE TABLE sync_state (
    org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    last_attempt_at TEXT,
    last_attempt_mode TEXT,
    last_success_at TEXT,
    last_success_started_at TEXT,
    last_success_mode TEXT,
    incrementals_since_full INTEGER NOT NULL DEFAULT 0,
    remote_honours_updated_since INTEGER,
    last_error TEXT,
    counts TEXT,
    skipped_count INTEGER NOT NULL DEFAULT 0,
    skipped_ids TEXT NOT NULL DEFAULT '[]'
  );
  `,
  // An organization shows the rows of one inventory, and the inventory tables' org_id holds that
  // inventory's id (it was the organization's row id, which every existing organization keeps).
  // A full sync stages a new inventory under an id no organization points at and swaps the
  // pointer at the end; replaced and removed inventories are deleted in the background
  // (inventories.ts). Dropping the CVE ids and texts no finding uses any more then looks each
  // up by cve_ref and text_ref, and so does SQLite's foreign-key check of every such delete:
  // findings_cve leads with cve_ref (a filter by CVE still gives both columns), findings_text
  // is new. Without them each check was a pass over every finding.
  `
  ALTER TABLE organizations ADD COLUMN inventory_id INTEGER NOT NULL DEFAULT 0;
  UPDATE organizations SET inventory_id = id;
  CREATE UNIQUE INDEX organizations_inventory ON organizations (inventory_id);
  DROP INDEX findings_cve;
  CREATE INDEX findings_cve ON findings (cve_ref, org_id);
  CREATE INDEX findings_text ON findings (text_ref);
  `,
  // Exceptions: local records of an organization (its row id, which a full sync keeps), never
  // inventory rows. They name what they cover by /v1 ids (a CVE id, endpoint ids as a JSON
  // array, a finding id), which syncs keep too. An exception's id is its key within its
  // organization, so that one exported file imports into several organizations.
  `
  CREATE TABLE exceptions (
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    scope_kind TEXT NOT NULL CHECK (scope_kind IN ('cve', 'cve_on_endpoints', 'finding')),
    cve_id TEXT,
    endpoint_ids TEXT,
    finding_id TEXT,
    reason TEXT NOT NULL,
    note TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    expires_ms INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_by TEXT,
    updated_at TEXT,
    revoked_by TEXT,
    revoked_at TEXT,
    PRIMARY KEY (org_id, id)
  );
  `,
  // Remediation deadlines of an organization (remediation-deadlines.ts): a local record of the
  // organization's row, kept across syncs; no row means the defaults. Days are NULL for none.
  `
  CREATE TABLE sla_policies (
    org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    critical_days INTEGER,
    high_days INTEGER,
    medium_days INTEGER,
    low_days INTEGER,
    info_days INTEGER,
    kev_days INTEGER,
    updated_at TEXT NOT NULL
  );
  `,
  // What each sync of a replica changed (sync-changes.ts), written in the sync's own transaction;
  // keyed by the organization's row id, which survives full syncs, and removed with it. The id
  // is never reused (AUTOINCREMENT): the console remembers the changes it was told of by id.
  `
  CREATE TABLE sync_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    mode TEXT NOT NULL,
    first_sync INTEGER NOT NULL,
    counts TEXT NOT NULL,
    newly_open TEXT NOT NULL,
    remediated TEXT NOT NULL
  );
  CREATE INDEX sync_changes_org ON sync_changes (org_id, id);
  `,
  // What an organization's agent configuration files tell agents (agent-settings.ts): a local
  // record of its row, kept across syncs; no row means nothing set. A bundle id NULL is the
  // default. The demo organization of an existing data directory gets the demo's settings, as a
  // new one gets them at first start, so that it still produces its files.
  `
  CREATE TABLE agent_settings (
    org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    server_url TEXT,
    team_id TEXT,
    bundle_id TEXT,
    updated_at TEXT NOT NULL
  );
  INSERT INTO agent_settings (org_id, server_url, team_id, updated_at)
    SELECT id, ${literal(demoAgentSettings.serverUrl)}, ${literal(demoAgentSettings.teamId)}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM organizations WHERE is_demo = 1;
  `,
  // Reconciling a replica with its remote (sync/reconcile.ts): its interval setting, when it was
  // last reconciled and what that changed, when it last matched its remote, the totals that
  // differed at the last count check, and the differences seen right after the last reconcile
  // (remote items the replica skips as invalid), which later checks take as matching.
  `
  ALTER TABLE sync_state ADD COLUMN reconcile_interval_hours INTEGER NOT NULL DEFAULT 24;
  ALTER TABLE sync_state ADD COLUMN last_reconciled_at TEXT;
  ALTER TABLE sync_state ADD COLUMN last_reconcile_changed INTEGER;
  ALTER TABLE sync_state ADD COLUMN last_matched_at TEXT;
  ALTER TABLE sync_state ADD COLUMN count_differences TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE sync_state ADD COLUMN count_baseline TEXT NOT NULL DEFAULT '{}';
  `,
  // Endpoint context (store/context/): tags and a criticality per endpoint, and tag rules; local
  // records of the organization's row, kept across syncs. Keyed by the endpoint's /v1 id, never
  // by an inventory row (a full sync replaces those): context outlives the endpoint's rows and
  // applies again when the id comes back. A tag is stored as spelt, compared by tag_key (its
  // lower case); criticality 'normal' is no row.
  `
  CREATE TABLE endpoint_tags (
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    endpoint_id TEXT NOT NULL,
    tag_key TEXT NOT NULL,
    tag TEXT NOT NULL,
    PRIMARY KEY (org_id, endpoint_id, tag_key)
  ) WITHOUT ROWID;
  CREATE INDEX endpoint_tags_key ON endpoint_tags (org_id, tag_key);
  CREATE TABLE endpoint_criticality (
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    endpoint_id TEXT NOT NULL,
    criticality TEXT NOT NULL CHECK (criticality IN ('low', 'high', 'critical')),
    PRIMARY KEY (org_id, endpoint_id)
  ) WITHOUT ROWID;
  CREATE TABLE tag_rules (
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    tag_key TEXT NOT NULL,
    tag TEXT NOT NULL,
    conditions TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
  );
  `,
  // No statement looks endpoint tags up by tag (the effective context is built from all of an
  // organization's rows, in key order): the index on tag_key cost a bulk tag of 20,000 endpoints
  // about as much as the rows themselves.
  `
  DROP INDEX endpoint_tags_key;
  `,
  // A replica's syncs paused by its owner (sync/sync-scheduler.ts): no background sync runs until
  // they are resumed, so that a failing or hostile remote is left alone without losing the replica.
  `
  ALTER TABLE sync_state ADD COLUMN syncs_paused INTEGER NOT NULL DEFAULT 0;
  `,
  // Exploit intelligence imported from files (store/intel/): local to the installation, keyed by
  // no organization nor inventory row, so that every sync (full ones too) leaves it. Each import
  // is recorded, unfinished until its last write; `current` marks the one of each kind whose
  // figures are the current ones. A CVE is keyed by an integer (store/intel/cve-key.ts), never
  // by a cves row, which the collection of inventories deletes. EPSS history is kept per import
  // for the CVEs some inventory names; KEV entries per catalog (source) and entry key.
  `
  CREATE TABLE intel_imports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('epss', 'cisa-kev', 'eu-kev')),
    source_date TEXT NOT NULL,
    version TEXT,
    rows INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    current INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE epss_current (
    cve_key INTEGER PRIMARY KEY,
    epss REAL NOT NULL,
    percentile REAL NOT NULL
  );
  CREATE TABLE epss_history (
    import_id INTEGER NOT NULL,
    cve_key INTEGER NOT NULL,
    epss REAL NOT NULL,
    percentile REAL NOT NULL,
    PRIMARY KEY (import_id, cve_key)
  ) WITHOUT ROWID;
  CREATE INDEX epss_history_cve ON epss_history (cve_key);
  CREATE TABLE kev_entries (
    source TEXT NOT NULL CHECK (source IN ('cisa', 'eu')),
    entry_key TEXT NOT NULL,
    cve_id TEXT,
    euvd_id TEXT,
    vendor_project TEXT NOT NULL,
    product TEXT NOT NULL,
    vulnerability_name TEXT NOT NULL,
    date_added TEXT NOT NULL,
    due_date TEXT,
    ransomware INTEGER,
    required_action TEXT,
    short_description TEXT NOT NULL,
    notes TEXT NOT NULL,
    cwes TEXT NOT NULL,
    exploitation_type TEXT NOT NULL,
    PRIMARY KEY (source, entry_key)
  ) WITHOUT ROWID;
  CREATE INDEX kev_entries_cve ON kev_entries (cve_id);
  `,
  // What each intelligence import changed for each organization (store/intel/intel-changes.ts), and
  // the installation's intelligence settings (one row): local, kept across syncs like the imports.
  `
  CREATE TABLE intel_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    epss_threshold REAL NOT NULL,
    epss_rise REAL NOT NULL
  );
  CREATE TABLE intel_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    import_id INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    change TEXT NOT NULL
  );
  CREATE INDEX intel_changes_org ON intel_changes (org_id, id);
  `,
  // Fix-by dates (issue 37, store/ssvc/): Vulnrichment records come in as intelligence imports
  // (a kind of its own, with the import's report of counts and normalisations), and their SSVC
  // values are kept per CVE key, the latest import of a CVE's record winning; an organization's
  // fix-by settings (its deadline policy, exposure tags, what unknown counts as) are a local
  // record of its row, kept across syncs, with what each change of context or settings did to
  // its findings' outcomes and dates. SQLite cannot change a CHECK: intel_imports is rebuilt.
  `
  CREATE TABLE intel_imports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('epss', 'cisa-kev', 'eu-kev', 'vulnrichment')),
    source_date TEXT NOT NULL,
    version TEXT,
    rows INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    current INTEGER NOT NULL DEFAULT 0,
    report TEXT
  );
  INSERT INTO intel_imports_new (id, kind, source_date, version, rows, sha256, imported_at, finished, current)
    SELECT id, kind, source_date, version, rows, sha256, imported_at, finished, current FROM intel_imports;
  DROP TABLE intel_imports;
  ALTER TABLE intel_imports_new RENAME TO intel_imports;
  CREATE TABLE vulnrichment (
    cve_key INTEGER PRIMARY KEY,
    cve_id TEXT NOT NULL,
    exploitation TEXT NOT NULL CHECK (exploitation IN ('none', 'public poc', 'active')),
    automatable TEXT NOT NULL CHECK (automatable IN ('no', 'yes')),
    technical_impact TEXT NOT NULL CHECK (technical_impact IN ('partial', 'total')),
    timestamp TEXT NOT NULL,
    version TEXT NOT NULL,
    import_id INTEGER NOT NULL
  );
  CREATE TABLE fix_by_settings (
    org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    deadline_policy TEXT NOT NULL CHECK (deadline_policy IN ('severity-days', 'bod-26-04', 'kev-due-date')),
    exposure_tags TEXT NOT NULL,
    unknown_as TEXT NOT NULL CHECK (unknown_as IN ('shorter-timeline', 'longer-timeline')),
    updated_at TEXT NOT NULL
  );
  CREATE TABLE fix_by_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    recorded_at TEXT NOT NULL,
    change TEXT NOT NULL
  );
  CREATE INDEX fix_by_changes_org ON fix_by_changes (org_id, id);
  `,
  // Work packages (store/records/work-package-records.ts): per organization and external id, the
  // local owner and note, the ticket a status import read, and what the check after a sync found;
  // and each check that flagged a step, for the change feed. Local, kept across syncs.
  `
  CREATE TABLE work_packages (
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    vendor TEXT,
    product TEXT,
    owner TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    ticket_system TEXT CHECK (ticket_system IN ('jira', 'servicenow')),
    ticket_key TEXT,
    ticket_status TEXT CHECK (ticket_status IN ('ticketed', 'in-progress', 'done', 'wont-do')),
    system_status TEXT,
    resolution TEXT,
    resolved_at TEXT,
    imported_at TEXT,
    still_vulnerable TEXT,
    PRIMARY KEY (org_id, external_id)
  ) WITHOUT ROWID;
  CREATE TABLE work_package_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    checked_at TEXT NOT NULL,
    flagged TEXT NOT NULL
  );
  CREATE INDEX work_package_checks_org ON work_package_checks (org_id, id);
  `,
  // The status names an organization's teams gave their tickets (store/records/work-package-records.ts):
  // what a status import maps before the names it knows. Local, kept across syncs.
  `
  CREATE TABLE ticket_status_mappings (
    org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    mappings TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
  // A what-if under way (store/ssvc/fix-by-changes.ts): written before the change of context or
  // settings, with what the fix-by dates were computed from before it (each endpoint's resolved
  // exposure and mission, packed; the setting unknown_as), so that a change whose comparison a
  // shutdown cut short is compared and recorded at the next start.
  `
  CREATE TABLE fix_by_pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    recorded_at TEXT NOT NULL,
    cause TEXT NOT NULL,
    unknown_as TEXT NOT NULL,
    findings INTEGER NOT NULL,
    endpoints BLOB NOT NULL
  );
  CREATE INDEX fix_by_pending_org ON fix_by_pending (org_id, id);
  `,
  // Saved views (issue 40, store/records/saved-view-records.ts): a console view's filters under a
  // name per organization, unique by the name's key (without case, in any script: SQLite's NOCASE
  // folds ASCII only), which also serves the list in name order. Local, kept across syncs.
  `
  CREATE TABLE saved_views (
    id TEXT PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    view TEXT NOT NULL,
    query TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (org_id, name_key)
  );
  `,
  // Reports (store/records/report-records.ts): each made once and kept frozen, its HTML, figures
  // and detached signature as they were made, under the organization it was made from; the
  // previous one of the same filter, template and organizations is what a delta compares with,
  // through the open findings each section counted (report_findings, written in parts).
  `
  CREATE TABLE reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    organizations TEXT NOT NULL,
    template TEXT NOT NULL,
    filter TEXT NOT NULL,
    created_at TEXT NOT NULL,
    html BLOB NOT NULL,
    figures TEXT NOT NULL,
    signature BLOB NOT NULL,
    signer TEXT NOT NULL,
    sha256 TEXT NOT NULL
  );
  CREATE INDEX reports_previous ON reports (org_id, template, filter, organizations, id);
  CREATE TABLE report_findings (
    report_uuid TEXT NOT NULL,
    org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    lines TEXT NOT NULL,
    PRIMARY KEY (report_uuid, org_id, part)
  ) WITHOUT ROWID;
  `,
  // Which findings each recorded sync opened and closed (sync-change-records.ts), whole rather
  // than the first few of sync_changes' lists, so that a report's delta can be taken between any
  // two syncs (reports/sync-delta.ts): 'o' became open (new, or reopened), 'c' stopped being open
  // (remediated, another status, or gone), 'k' open before and after and became KEV. Deleted with
  // its sync's record. `findings_kept` is 0 for a sync recorded before this table, or one that
  // changed more findings than are kept: no delta is taken across it.
  `
  CREATE TABLE sync_finding_changes (
    change_id INTEGER NOT NULL REFERENCES sync_changes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    finding_id TEXT NOT NULL
  );
  CREATE INDEX sync_finding_changes_change ON sync_finding_changes (change_id);
  ALTER TABLE sync_changes ADD COLUMN findings_kept INTEGER NOT NULL DEFAULT 0;
  `,
  // The replica's totals of each count check as last counted (sync-run-records.ts), kept while
  // its data does not change, so that the check after a sync that wrote nothing counts nothing;
  // null until the next check counts them.
  `ALTER TABLE sync_state ADD COLUMN replica_totals TEXT;`,
  // How a report's HTML and figures are kept (report-records.ts): 'identity' as they are (every
  // report made before this version), 'gzip' compressed, off the server's thread, before the write.
  `ALTER TABLE reports ADD COLUMN encoding TEXT NOT NULL DEFAULT 'identity';`,
];
