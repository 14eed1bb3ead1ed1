import Foundation
import SQLite

extension CareStore {
    /// The store's migrations. Never edit a shipped migration; append a new one.
    ///
    /// Conventions: dates are REAL seconds since 1970 UTC; UUIDs are uppercase text; a task's
    /// schedule is the JSON of `Care.Schedule` with dates in seconds since 1970, and its format is
    /// part of the schema version (changing it takes a migration).
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.registerMigration("createCareSchema") { db in
            try db.executeScript(
                """
                -- One row per task version. A version's successor points back at it through
                -- previous_uuid; a tombstone is a version with deleted_date set.
                CREATE TABLE task (
                    uuid TEXT PRIMARY KEY NOT NULL,
                    id TEXT NOT NULL,
                    title TEXT,
                    instructions TEXT,
                    impacts_adherence INTEGER NOT NULL CHECK (impacts_adherence IN (0, 1)),
                    schedule TEXT NOT NULL,
                    effective_date REAL NOT NULL,
                    deleted_date REAL,
                    created_date REAL NOT NULL,
                    updated_date REAL,
                    previous_uuid TEXT REFERENCES task(uuid)
                ) STRICT;
                -- One first version per id: an id is never added twice, even after a delete.
                CREATE UNIQUE INDEX task_one_first_version_per_id ON task(id) WHERE previous_uuid IS NULL;
                -- Chains are linear: a version has at most one successor.
                CREATE UNIQUE INDEX task_one_successor ON task(previous_uuid) WHERE previous_uuid IS NOT NULL;
                CREATE INDEX task_by_id ON task(id);

                -- An outcome belongs to one event of one task version: (task_uuid, occurrence).
                -- The event's window is frozen on the row when it is stored. Deleting sets
                -- deleted_date; the row stays.
                CREATE TABLE outcome (
                    uuid TEXT PRIMARY KEY NOT NULL,
                    task_uuid TEXT NOT NULL REFERENCES task(uuid),
                    occurrence INTEGER NOT NULL CHECK (occurrence >= 0),
                    created_date REAL NOT NULL,
                    event_start REAL NOT NULL,
                    event_end REAL NOT NULL CHECK (event_end >= event_start),
                    deleted_date REAL
                ) STRICT;
                CREATE UNIQUE INDEX outcome_one_live_per_event ON outcome(task_uuid, occurrence)
                    WHERE deleted_date IS NULL;
                -- Date queries keep outcomes with event_end >= from; most history ends before
                -- "today", so the scan starts near the end of the index.
                CREATE INDEX outcome_by_task_and_event_end ON outcome(task_uuid, event_end);

                -- The values of an outcome, in order. value holds INTEGER for integer and
                -- boolean, REAL for double and date (seconds since 1970), TEXT for text.
                CREATE TABLE outcome_value (
                    outcome_uuid TEXT NOT NULL REFERENCES outcome(uuid),
                    position INTEGER NOT NULL CHECK (position >= 0),
                    type TEXT NOT NULL CHECK (type IN ('integer', 'double', 'boolean', 'text', 'date')),
                    value ANY NOT NULL,
                    kind TEXT,
                    units TEXT,
                    created_date REAL NOT NULL,
                    PRIMARY KEY (outcome_uuid, position)
                ) STRICT, WITHOUT ROWID;

                -- Store-wide settings: time zone, limb, device id, plan start.
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) STRICT, WITHOUT ROWID;
                """)
            // The device id is minted with the store and never changes: exports carry it so
            // records from several appliances can be told apart.
            try db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [MetadataKey.deviceID.rawValue, UUID().uuidString])
        }
        return migrator
    }()
}
