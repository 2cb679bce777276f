//! Versioned migrations. The file's `PRAGMA user_version` is the number of migrations
//! applied; each pending one runs in its own transaction together with the version bump,
//! so a crash mid-way leaves the file at the previous version. Append only: never edit
//! or reorder a released migration, add a new one.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::StoreError;

/// The migrations, in order; migration `i` brings the file to version `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: a specialist's saved skill settings (one row: the current revision)
    "CREATE TABLE skill_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL CHECK (revision >= 1),
        document TEXT NOT NULL,
        saved_at_ms INTEGER NOT NULL
    ) STRICT;",
    // 2: exactly-once operations: the result recorded with the effect, per scope and id
    "CREATE TABLE operations (
        scope TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (scope, operation_id)
    ) STRICT, WITHOUT ROWID;",
    // 3: tutoring requests (the validated form values as JSON)
    "CREATE TABLE tutoring_requests (
        id TEXT PRIMARY KEY,
        student_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        request_values TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX tutoring_requests_by_student ON tutoring_requests (student_id, created_at_ms);",
    // 4: study-room bookings; one booked_hours row per hour, whose primary key makes an
    // overlapping booking of a room a constraint violation
    "CREATE TABLE bookings (
        id TEXT PRIMARY KEY,
        student_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        date TEXT NOT NULL CHECK (length(date) = 10 AND date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        room TEXT NOT NULL CHECK (length(room) BETWEEN 1 AND 16),
        start_hour INTEGER NOT NULL CHECK (start_hour BETWEEN 0 AND 23),
        duration_hours INTEGER NOT NULL CHECK (duration_hours >= 1 AND start_hour + duration_hours <= 24),
        group_size INTEGER NOT NULL CHECK (group_size >= 1),
        created_at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX bookings_by_student ON bookings (student_id, created_at_ms);
    CREATE TABLE booked_hours (
        room TEXT NOT NULL,
        date TEXT NOT NULL,
        hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
        booking_id TEXT NOT NULL REFERENCES bookings (id),
        PRIMARY KEY (room, date, hour)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX booked_hours_by_date ON booked_hours (date);",
    // 5: the Hub's form references; at most one open per conversation
    "CREATE TABLE form_refs (
        reference TEXT PRIMARY KEY,
        student_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        specialist_id TEXT NOT NULL,
        specialist_task_id TEXT NOT NULL,
        specialist_context_id TEXT NOT NULL,
        workflow TEXT NOT NULL,
        form_version INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'superseded', 'closed')),
        expires_at_ms INTEGER NOT NULL,
        created_at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX form_refs_one_open ON form_refs (student_id, context_id) WHERE state = 'open';",
    // 6: the Hub's request ledger (seq: the order of writing, for pruning the oldest);
    // answer is NULL while the request is being handled
    "CREATE TABLE request_ledger (
        seq INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        request_id TEXT NOT NULL,
        question_hash INTEGER NOT NULL,
        answer TEXT,
        created_at_ms INTEGER NOT NULL,
        UNIQUE (scope, request_id, question_hash)
    ) STRICT;",
    // 7: the specialist's own id of the form a Hub reference stands for (its A2UI surface id)
    "ALTER TABLE form_refs ADD COLUMN form_id TEXT NOT NULL DEFAULT '';",
    // 8: a specialist's forms (at most one open per conversation and workflow) and its
    // own secrets (the key its booking slot ids are made with)
    "CREATE TABLE forms (
        form_id TEXT PRIMARY KEY,
        workflow TEXT NOT NULL,
        context_id TEXT NOT NULL,
        task_id TEXT NOT NULL DEFAULT '',
        version INTEGER NOT NULL CHECK (version >= 1),
        state TEXT NOT NULL CHECK (state IN ('open', 'submitted', 'cancelled', 'superseded')),
        screen TEXT NOT NULL,
        form_values TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX forms_one_open ON forms (context_id, workflow) WHERE state = 'open';
    CREATE TABLE agent_secrets (
        name TEXT PRIMARY KEY,
        secret BLOB NOT NULL
    ) STRICT;",
    // 9: the request ledger as an append-only log: one row per request (a first
    // question's assigned conversation in it, not a second row), found by seq, with no
    // index on the key (the Hub's map in memory is the index): a batch of writes touches
    // only the table's last pages. Rows kept; a first question's alias row folded in.
    "CREATE TABLE request_log (
        seq INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        request_id TEXT NOT NULL,
        question_hash INTEGER NOT NULL,
        assigned_context TEXT,
        answer TEXT,
        created_at_ms INTEGER NOT NULL
    ) STRICT;
    INSERT INTO request_log (seq, scope, request_id, question_hash, assigned_context, answer, created_at_ms)
        SELECT l.seq, l.scope, l.request_id, l.question_hash,
               CASE WHEN l.scope = '' THEN (SELECT a.scope FROM request_ledger a
                   WHERE a.scope <> '' AND a.request_id = l.request_id AND a.question_hash = l.question_hash
                   ORDER BY a.seq LIMIT 1) END,
               l.answer, l.created_at_ms
        FROM request_ledger l
        WHERE l.scope = '' OR NOT EXISTS (SELECT 1 FROM request_ledger k
            WHERE k.scope = '' AND k.request_id = l.request_id AND k.question_hash = l.question_hash);
    DROP TABLE request_ledger;
    ALTER TABLE request_log RENAME TO request_ledger;",
    // 10: exactly-once records numbered in the order they were written (seq), so the
    // oldest can be pruned (by count and age) without scanning the table; rows kept, in
    // the order of their creation
    "CREATE TABLE operations_log (
        seq INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        UNIQUE (scope, operation_id)
    ) STRICT;
    INSERT INTO operations_log (scope, operation_id, fingerprint, result, created_at_ms)
        SELECT scope, operation_id, fingerprint, result, created_at_ms FROM operations
        ORDER BY created_at_ms, scope, operation_id;
    DROP TABLE operations;
    ALTER TABLE operations_log RENAME TO operations;",
    // 11: other agents' public keys, pinned on first use (the Hub: each specialist's; a
    // specialist: the Hub's)
    "CREATE TABLE pinned_keys (
        identity TEXT PRIMARY KEY,
        public_key TEXT NOT NULL,
        pinned_at_ms INTEGER NOT NULL
    ) STRICT;",
    // 12: what the Hub remembers of each Student conversation (opaque JSON), so a restart
    // keeps follow-ups and open questions; `touched` orders them for pruning
    "CREATE TABLE hub_conversations (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        touched INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX hub_conversations_by_touched ON hub_conversations (touched);",
    // 13: when each conversation was last written, so one untouched for 30 days goes
    // (`created_at_ms`, the column the age prune reads); those kept so far count from now
    "ALTER TABLE hub_conversations ADD COLUMN created_at_ms INTEGER NOT NULL DEFAULT 0;
    UPDATE hub_conversations SET created_at_ms = CAST(strftime('%s', 'now') AS INTEGER) * 1000;",
    // 14: the Library's demo loans (a fixed sample: rows are replaced, never added by
    // requests), the day each borrower's sample was first made (its dates count from it),
    // and the Hub conversations each borrower's loans were last reset for (seq: the order
    // of writing, for pruning the oldest)
    "CREATE TABLE loans (
        id TEXT PRIMARY KEY,
        borrower TEXT NOT NULL,
        title TEXT NOT NULL,
        author TEXT NOT NULL,
        due_date TEXT NOT NULL CHECK (length(due_date) = 10 AND due_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        renewals INTEGER NOT NULL CHECK (renewals >= 0),
        hold INTEGER NOT NULL CHECK (hold IN (0, 1)),
        course_reserve INTEGER NOT NULL CHECK (course_reserve IN (0, 1)),
        version INTEGER NOT NULL CHECK (version >= 1)
    ) STRICT;
    CREATE INDEX loans_by_borrower ON loans (borrower);
    CREATE TABLE loan_samples (
        borrower TEXT PRIMARY KEY,
        anchor TEXT NOT NULL CHECK (length(anchor) = 10),
        created_at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE loan_contexts (
        seq INTEGER PRIMARY KEY,
        borrower TEXT NOT NULL,
        context_id TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        UNIQUE (borrower, context_id)
    ) STRICT;",
];

/// The schema version this build writes and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Brings the file to [`SCHEMA_VERSION`]; refuses a file from a newer build.
pub(crate) fn apply(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let sqlite = |e: rusqlite::Error| StoreError::Sqlite {
        path: path.to_path_buf(),
        reason: e.to_string().to_lowercase(),
    };
    let found = user_version(conn).map_err(|e| StoreError::open(path, e))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew { path: path.to_path_buf(), found, known: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let version = i as u32 + 1;
        // IMMEDIATE, and the version read again under the write lock: another process
        // opening the same file at the same moment may have applied this one already
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sqlite)?;
        if user_version(&tx).map_err(sqlite)? >= version {
            continue;
        }
        tx.execute_batch(sql).map_err(sqlite)?;
        tx.pragma_update(None, "user_version", version).map_err(sqlite)?;
        tx.commit().map_err(sqlite)?;
        tracing::debug!(version, file = %path.display(), "data file migrated");
    }
    if found < SCHEMA_VERSION {
        // one line per file, not one per step: a first start runs every step
        let from = found;
        tracing::info!(from, to = SCHEMA_VERSION, file = %path.display(), "data file brought up to date");
    }
    Ok(())
}
