import Care
import Foundation
import SQLite

// Reading and writing rows. Everything here runs inside a transaction opened by the caller.
extension CareStore {
    // MARK: - Tasks

    static let taskColumns = """
        uuid, id, title, instructions, impacts_adherence, schedule, effective_date, deleted_date,
        created_date, updated_date, previous_uuid
        """

    static func insert(_ task: CareTask, in db: Connection) throws {
        try db.execute(
            "INSERT INTO task (\(taskColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                task.uuid, task.id, task.title, task.instructions, task.impactsAdherence,
                try encodeSchedule(task.schedule), task.effectiveDate, task.deletedDate,
                task.createdDate, task.updatedDate, task.previousVersionUUID,
            ])
    }

    /// The version chains of the tasks with these ids (all tasks when `ids` is nil), in the order
    /// the tasks were first added.
    ///
    /// Task rows are never changed once written, so a version decoded once (its schedule JSON is
    /// the costly part) is reused from ``taskVersionCache`` for the life of the store object.
    func chains(ids: [String]?, in db: Connection) throws -> [TaskVersionChain] {
        let rows: [Row]
        if let ids {
            rows = try db.fetchAll(
                "SELECT \(Self.taskColumns) FROM task WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid",
                [try Self.jsonArray(ids)])
        } else {
            rows = try db.fetchAll("SELECT \(Self.taskColumns) FROM task ORDER BY rowid")
        }
        var order: [String] = []
        var versionsByID: [String: [CareTask]] = [:]
        for row in rows {
            let uuid = try? row.decode("uuid", as: UUID.self)
            let task: CareTask
            if let uuid, let cached = taskVersionCache.withLock({ $0[uuid] }) {
                task = cached
            } else {
                task = try Self.decodeTask(row)
                taskVersionCache.withLock { $0[task.uuid] = task }
            }
            if versionsByID[task.id] == nil { order.append(task.id) }
            versionsByID[task.id, default: []].append(task)
        }
        return try order.map { id in try Self.chain(linking: versionsByID[id] ?? []) }
    }

    /// The chain of one task.
    ///
    /// - Throws: ``CareStoreError/unknownTask(id:)``.
    func chain(id: String, in db: Connection) throws -> TaskVersionChain {
        guard let chain = try self.chains(ids: [id], in: db).first else { throw CareStoreError.unknownTask(id: id) }
        return chain
    }

    /// Orders versions by following `previousVersionUUID` from the first one, rather than
    /// trusting insertion order.
    private static func chain(linking versions: [CareTask]) throws -> TaskVersionChain {
        let successors = Dictionary(
            versions.compactMap { v in v.previousVersionUUID.map { ($0, v) } },
            uniquingKeysWith: { first, _ in first })
        var ordered = versions.filter { $0.previousVersionUUID == nil }
        while ordered.count < versions.count, let last = ordered.last, let next = successors[last.uuid] {
            ordered.append(next)
        }
        return try TaskVersionChain(ordered.count == versions.count ? ordered : versions)
    }

    private static func decodeTask(_ row: Row) throws -> CareTask {
        do {
            let scheduleJSON: String = try row.decode("schedule")
            return CareTask(
                id: try row.decode("id"), uuid: try row.decode("uuid"), title: try row.decode("title"),
                instructions: try row.decode("instructions"), impactsAdherence: try row.decode("impacts_adherence"),
                schedule: try decodeSchedule(scheduleJSON), effectiveDate: try row.decode("effective_date") as Date,
                deletedDate: try row.decode("deleted_date"), createdDate: try row.decode("created_date"),
                updatedDate: try row.decode("updated_date"), previousVersionUUID: try row.decode("previous_uuid"))
        } catch {
            throw CareStoreError.unreadableRow(table: "task", reason: String(describing: error))
        }
    }

    // The schedule JSON uses seconds since 1970 for dates, like the columns. Its format is part of
    // the schema version.
    private static func encodeSchedule(_ schedule: Schedule) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(schedule), as: UTF8.self)
    }

    private static func decodeSchedule(_ json: String) throws -> Schedule {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Schedule.self, from: Data(json.utf8))
    }

    static func jsonArray(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }

    // MARK: - Outcomes

    static func insert(_ outcome: Outcome, in db: Connection) throws {
        try db.execute(
            """
            INSERT INTO outcome (uuid, task_uuid, occurrence, created_date, event_start, event_end, deleted_date)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                outcome.uuid, outcome.taskUUID, outcome.taskOccurrenceIndex, outcome.createdDate,
                outcome.eventStart, outcome.eventEnd, outcome.deletedDate,
            ])
        for (position, value) in outcome.values.enumerated() {
            let stored: any DatabaseValueConvertible =
                switch value.value {
                case .integer(let int): int
                case .double(let double): double
                case .boolean(let bool): bool
                case .text(let text): text
                case .date(let date): date
                }
            try db.execute(
                """
                INSERT INTO outcome_value (outcome_uuid, position, type, value, kind, units, created_date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [outcome.uuid, position, value.typeName, stored, value.kind, value.units, value.createdDate])
        }
    }

    /// Which outcomes to read.
    struct OutcomeFilter {
        /// Task ids; nil for all tasks.
        var taskIDs: [String]?
        /// Keep outcomes whose frozen event overlaps the interval (`start < end` of the interval,
        /// `end >= start` of it); nil for all.
        var interval: DateInterval?
        /// One event only: (task version, occurrence).
        var event: (taskUUID: UUID, occurrence: Int)?
        var includesDeleted = false
    }

    /// Outcomes with their values and the id of their task, ordered by event start.
    static func outcomes(_ filter: OutcomeFilter, in db: Connection) throws -> [(taskID: String, outcome: Outcome)] {
        // Conditions are added only when used (rather than `? IS NULL OR …`), and CROSS JOIN keeps
        // the (small) task table as the outer loop, so that SQLite range-scans
        // outcome_by_task_and_event_end per task version: a day's query skips the years before it.
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let ids = filter.taskIDs {
            conditions.append("t.id IN (SELECT value FROM json_each(?))")
            arguments.append(try jsonArray(ids))
        }
        if let interval = filter.interval {
            conditions.append("o.event_end >= ? AND o.event_start < ?")
            arguments += [interval.start, interval.end]
        }
        if let event = filter.event {
            conditions.append("o.task_uuid = ? AND o.occurrence = ?")
            arguments += [event.taskUUID, event.occurrence]
        }
        if !filter.includesDeleted { conditions.append("o.deleted_date IS NULL") }
        var results: [(taskID: String, outcome: Outcome)] = []
        var current: (taskID: String, outcome: Outcome)?
        do {
            try db.forEachRow(
                """
                SELECT t.id, o.uuid, o.task_uuid, o.occurrence, o.created_date, o.event_start, o.event_end,
                       o.deleted_date, v.type, v.value, v.kind, v.units, v.created_date
                FROM task t
                CROSS JOIN outcome o ON o.task_uuid = t.uuid
                LEFT JOIN outcome_value v ON v.outcome_uuid = o.uuid
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY o.event_start, o.rowid, v.position
                """,
                arguments
            ) { statement in
                let uuid = try column(statement, 1, UUID.self)
                if current?.outcome.uuid != uuid {
                    if let current { results.append(current) }
                    current = (
                        try column(statement, 0, String.self),
                        Outcome(
                            uuid: uuid, taskUUID: try column(statement, 2, UUID.self),
                            taskOccurrenceIndex: try column(statement, 3, Int.self), values: [],
                            createdDate: try column(statement, 4, Date.self),
                            eventStart: try column(statement, 5, Date.self),
                            eventEnd: try column(statement, 6, Date.self),
                            deletedDate: try column(statement, 7, Date?.self))
                    )
                }
                if let type = try column(statement, 8, String?.self) {
                    current?.outcome.values.append(try decodeValue(type: type, statement))
                }
            }
        } catch let error as CareStoreError {
            throw error
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw CareStoreError.unreadableRow(table: "outcome", reason: String(describing: error))
        }
        if let current { results.append(current) }
        return results
    }

    private static func decodeValue(type: String, _ statement: Statement) throws -> OutcomeValue {
        let value: OutcomeValue.Value =
            switch type {
            case "integer": .integer(try column(statement, 9, Int.self))
            case "double": .double(try column(statement, 9, Double.self))
            case "boolean": .boolean(try column(statement, 9, Bool.self))
            case "text": .text(try column(statement, 9, String.self))
            case "date": .date(try column(statement, 9, Date.self))
            default: throw CareStoreError.unreadableRow(table: "outcome_value", reason: "unknown value type '\(type)'")
            }
        return OutcomeValue(
            value, kind: try column(statement, 10, String?.self), units: try column(statement, 11, String?.self),
            createdDate: try column(statement, 12, Date.self))
    }

    private static func column<T: DatabaseValueConvertible>(_ statement: Statement, _ index: Int, _ type: T.Type) throws
        -> T
    {
        guard let value = statement.value(at: index, as: T.self) else {
            throw CareStoreError.unreadableRow(
                table: "outcome", reason: "column \(index) does not decode as \(T.self)")
        }
        return value
    }
}
