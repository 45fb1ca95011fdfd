-- Crawl state of one job (DESIGN.md §5). One database per job folder: crawl.sqlite3.
-- Tables are domain nouns. Times are POSIX seconds (REAL, UTC).

CREATE TABLE job (
    id              INTEGER PRIMARY KEY CHECK (id = 1),   -- one job per database
    name            TEXT NOT NULL,
    strategy        TEXT NOT NULL,
    profile_path    TEXT NOT NULL,
    profile_sha256  TEXT NOT NULL,
    profile_yaml    TEXT NOT NULL,          -- the profile as run (after CLI overrides)
    archiver_version TEXT NOT NULL,
    state           TEXT NOT NULL,          -- running | finished | interrupted
    phase           TEXT NOT NULL DEFAULT 'harvest',  -- learn | harvest
    stop_reason     TEXT,                   -- frontier-empty | max_requests | max_bytes | ... | signal
    started_at      REAL NOT NULL,
    updated_at      REAL NOT NULL,
    finished_at     REAL,
    runs            INTEGER NOT NULL DEFAULT 1,         -- 1 + number of resumes
    requests        INTEGER NOT NULL DEFAULT 0,         -- HTTP requests sent (incl. robots.txt, retries)
    bytes           INTEGER NOT NULL DEFAULT 0          -- payload bytes received
);

-- Every URL the crawl has seen: queued, fetched, skipped (with why), or failed.
CREATE TABLE url (
    id           INTEGER PRIMARY KEY,
    url          TEXT NOT NULL,                 -- as found (absolute, fragment removed)
    canon        TEXT NOT NULL UNIQUE,          -- canonical form: the seen-set key
    host         TEXT NOT NULL,
    depth        INTEGER NOT NULL,              -- link hops from a seed (redirects keep depth)
    hops         TEXT NOT NULL DEFAULT '',      -- Heritrix hop path: L link, R redirect, E embed, P prerequisite
    parent_id    INTEGER REFERENCES url(id),
    via          TEXT NOT NULL,                 -- seed | link | redirect | embed | robots
    anchor_path  TEXT NOT NULL DEFAULT '',      -- root-to-link path of the link that found it
    anchor_text  TEXT NOT NULL DEFAULT '',
    state        TEXT NOT NULL,                 -- queued | done | skipped | failed
    reason       TEXT NOT NULL DEFAULT '',      -- why skipped/failed, or the strategy's reason to follow
    priority     REAL NOT NULL DEFAULT 0,
    not_before   REAL NOT NULL DEFAULT 0,       -- retry backoff: not fetched before this time
    attempts     INTEGER NOT NULL DEFAULT 0,
    cluster      INTEGER,                       -- predicted (queued) or assigned (fetched) page cluster
    discovered_at REAL NOT NULL,
    fetched_at   REAL
);
CREATE INDEX url_queue ON url(state, priority DESC, id);
CREATE INDEX url_state_reason ON url(state, reason);
CREATE INDEX url_parent ON url(parent_id);

-- One row per archived HTTP exchange (the last attempt of a URL; retried attempts are events).
CREATE TABLE fetch (
    id             INTEGER PRIMARY KEY,
    url_id         INTEGER NOT NULL REFERENCES url(id),
    fetched_at     REAL NOT NULL,
    status         INTEGER,                     -- NULL when no HTTP response (DNS, refused, timeout)
    content_type   TEXT NOT NULL DEFAULT '',
    bytes          INTEGER NOT NULL DEFAULT 0,  -- payload bytes as received (after the size cap)
    truncated      TEXT NOT NULL DEFAULT '',    -- '' or WARC-Truncated reason (length, time)
    duration       REAL NOT NULL DEFAULT 0,
    record_type    TEXT NOT NULL DEFAULT '',    -- response | revisit | '' (not archived)
    payload_digest TEXT NOT NULL DEFAULT '',
    warc_file_id   INTEGER REFERENCES warc_file(id),
    warc_offset    INTEGER,
    warc_length    INTEGER,
    error          TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX fetch_url ON fetch(url_id);
CREATE INDEX fetch_status ON fetch(status);
CREATE INDEX fetch_type ON fetch(content_type);

-- Parsed HTML pages and what the strategy made of them.
CREATE TABLE page (
    url_id     INTEGER PRIMARY KEY REFERENCES url(id),
    title      TEXT NOT NULL DEFAULT '',
    cluster    INTEGER,                         -- learned cluster (-1 outlier), NULL without a model
    n_links    INTEGER NOT NULL DEFAULT 0,
    n_followed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX page_cluster ON page(cluster);

-- Outlinks of fetched pages with the strategy's decision (why a link was or was not followed).
CREATE TABLE link (
    from_id     INTEGER NOT NULL REFERENCES url(id),
    to_id       INTEGER NOT NULL REFERENCES url(id),
    anchor_path TEXT NOT NULL,
    text        TEXT NOT NULL DEFAULT '',
    follow      INTEGER NOT NULL,               -- 1 followed (queued or already seen), 0 skipped
    score       REAL NOT NULL DEFAULT 0,
    reason      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (from_id, to_id, anchor_path)
) WITHOUT ROWID;
CREATE INDEX link_to ON link(to_id);

CREATE TABLE warc_file (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,            -- final name (without .open)
    state      TEXT NOT NULL,                   -- open | closed
    created_at REAL NOT NULL,
    closed_at  REAL,
    size       INTEGER NOT NULL DEFAULT 0,      -- bytes up to the last committed record
    records    INTEGER NOT NULL DEFAULT 0
);

-- Payload digests already archived, for revisit records (identical-payload-digest profile).
CREATE TABLE payload (
    digest     TEXT PRIMARY KEY,
    url        TEXT NOT NULL,
    warc_date  TEXT NOT NULL
) WITHOUT ROWID;

-- robots.txt exchanges as fetched (also archived), so a resumed crawl re-learns its rules
-- without fetching (and archiving) them again.
CREATE TABLE robots_txt (
    url        TEXT PRIMARY KEY,
    fetched_at REAL NOT NULL,
    status     INTEGER,
    headers    TEXT NOT NULL DEFAULT '[]',        -- JSON list of [name, value]
    body       BLOB NOT NULL,
    error      TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- Learned page clusters (filled by learning strategies).
CREATE TABLE cluster (
    id           INTEGER PRIMARY KEY,           -- cluster id as the model numbers it; -1 outliers
    label        TEXT NOT NULL DEFAULT '',
    size         INTEGER NOT NULL DEFAULT 0,    -- sampled pages in the cluster
    score        REAL NOT NULL DEFAULT 0,       -- the strategy's value of the cluster (e.g. Info·DSim·Balance)
    info         TEXT NOT NULL DEFAULT '{}'     -- JSON: example URLs, top XPaths, hub/authority, ...
);

-- Learned navigation edges between clusters (the learned sitemap).
CREATE TABLE cluster_edge (
    src      INTEGER NOT NULL,
    dst      INTEGER NOT NULL,
    weight   REAL NOT NULL,
    PRIMARY KEY (src, dst)
) WITHOUT ROWID;

-- The crawl log's notable events: failures, retries, resumes, repairs, phase changes.
CREATE TABLE event (
    id      INTEGER PRIMARY KEY,
    at      REAL NOT NULL,
    level   TEXT NOT NULL,                      -- info | warning | error
    kind    TEXT NOT NULL,                      -- retry | fetch-error | resume | repair | phase | stop ...
    url     TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX event_kind ON event(kind);
