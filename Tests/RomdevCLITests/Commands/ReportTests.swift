import Care
import CareStorage
import Foundation
import Testing

@testable import RomdevCLI

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The recovery report: the page parsed as XML, its marks counted by class and day.
@Suite struct ReportTests {
    // MARK: Parsing the page

    /// Every element of the page, in document order.
    private func elements(_ html: String) throws -> [XMLElement] {
        let document = try XMLDocument(xmlString: html, options: [])
        var found: [XMLElement] = []
        func walk(_ node: XMLNode) {
            if let element = node as? XMLElement { found.append(element) }
            for child in node.children ?? [] { walk(child) }
        }
        if let root = document.rootElement() { walk(root) }
        return found
    }

    /// An attribute's value, looked up by name among the element's attributes (`attribute(forName:)`
    /// misses them under a default namespace in swift-corelibs-foundation).
    private func attribute(_ name: String, of element: XMLElement?) -> String? {
        element?.attributes?.first { $0.name == name }?.stringValue
    }

    private func classes(_ element: XMLElement) -> Set<String> {
        Set((attribute("class", of: element) ?? "").split(separator: " ").map(String.init))
    }

    /// The `data-day` of each element having all of `classNames`, in order (the legend's samples
    /// share class names but have no day).
    private func marked(_ classNames: Set<String>, in html: String) throws -> [String] {
        try elements(html).filter { classNames.isSubset(of: classes($0)) }
            .compactMap { attribute("data-day", of: $0) }
    }

    // MARK: The page alone

    private func day(_ dayOfMonth: Int, _ state: RecoveryReport.Scheduling, _ adherence: Adherence = .progress(1))
        -> RecoveryReport.Day
    {
        RecoveryReport.Day(year: 2026, month: 6, dayOfMonth: dayOfMonth, rangeOfMotion: state, adherence: adherence)
    }

    private func measurement(day: Int, range: Double, flags: [String] = [], unscheduled: Bool = false)
        -> RecoveryReport.Measurement
    {
        RecoveryReport.Measurement(
            day: day, time: "09:00", angles: [.init(kind: "range", degrees: range), .init(kind: "start", degrees: 2)],
            flags: flags, isUnscheduled: unscheduled)
    }

    private func report(
        days: [RecoveryReport.Day], measurements: [RecoveryReport.Measurement] = [],
        checkIns: [RecoveryReport.CheckIn] = [],
        outcomes: [RecoveryReport.OutcomeRow] = [], deviceID: String = "DEVICE"
    ) -> RecoveryReport {
        RecoveryReport(
            deviceID: deviceID, limb: "left", planStart: "2026-06-01", timeZone: "Europe/Paris",
            generated: "2026-06-10T12:00:00+02:00",
            days: days, measurements: measurements, checkIns: checkIns, outcomes: outcomes)
    }

    @Test func everyMeasurementAndCheckInIsOneMarkOnItsDay() throws {
        let days = [
            day(1, .recorded), day(2, .missed, .progress(0.5)), day(3, .recorded), day(4, .notScheduled), day(5, .due),
        ]
        let page = RecoveryReportPage.html(
            report(
                days: days,
                measurements: [
                    measurement(day: 0, range: 50), measurement(day: 2, range: 58, flags: ["unsteady"]),
                    measurement(day: 2, range: 60, unscheduled: true),
                    measurement(day: 3, range: 61, unscheduled: true),
                ],
                checkIns: [.init(day: 0, pain: 5, sleep: 6), .init(day: 3, pain: 3, sleep: nil)]))
        #expect(
            try marked(["mark", "measurement"], in: page) == ["2026-06-01", "2026-06-03", "2026-06-03", "2026-06-04"])
        #expect(try marked(["mark", "measurement", "flagged"], in: page) == ["2026-06-03"])
        #expect(try marked(["mark", "measurement", "unscheduled"], in: page) == ["2026-06-03", "2026-06-04"])
        #expect(try marked(["mark", "checkin"], in: page) == ["2026-06-01", "2026-06-04"])
        #expect(try marked(["no-checkin"], in: page) == ["2026-06-02", "2026-06-03", "2026-06-05"])
        #expect(try marked(["day-status", "missed"], in: page) == ["2026-06-02"])
        #expect(try marked(["day-status", "not-scheduled"], in: page) == ["2026-06-04"])
        #expect(try marked(["day-status", "due"], in: page) == ["2026-06-05"])
        #expect(try marked(["adherence-day"], in: page) == days.map(\.date))
        let half = try elements(page).first {
            classes($0).contains("adherence-day") && attribute("data-day", of: $0) == "2026-06-02"
        }
        #expect(attribute("data-fraction", of: half) == "0.5")
        #expect(!page.contains("<script"))
    }

    @Test func marksSitAtTheirValue() throws {
        let page = RecoveryReportPage.html(
            report(
                days: [day(1, .recorded), day(2, .recorded)],
                measurements: [measurement(day: 0, range: 45), measurement(day: 1, range: 90)]))
        let marks = try elements(page).filter { classes($0).contains("measurement") }
        let ys = marks.compactMap {
            attribute("cy", of: $0.children?.compactMap { $0 as? XMLElement }.first { $0.name == "circle" })
        }
        .compactMap(Double.init)
        #expect(ys.count == 2)
        // 0° is the plot's bottom (y 204), 90° its top (y 14): 45° is half-way.
        #expect(ys == [109, 14])
    }

    @Test func hostileStoreTextStaysText() throws {
        let hostile = "<script>alert(1)</script>\"' & <b>x</b>\u{1}"
        let page = RecoveryReportPage.html(
            report(
                days: [day(1, .notScheduled)],
                outcomes: [
                    .init(
                        day: "2026-06-01", time: "09:00", task: hostile, values: ["consent " + hostile],
                        flags: [hostile])
                ],
                deviceID: hostile))
        let all = try elements(page)
        #expect(!all.contains { ["script", "b"].contains($0.name ?? "") })
        let cells = all.filter { $0.name == "td" }.map { $0.stringValue ?? "" }
        let shown = hostile.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        #expect(cells == ["2026-06-01", "09:00", shown, "consent " + shown, shown])
        #expect(all.contains { $0.name == "dd" && $0.stringValue == shown })
    }

    @Test func emptyPeriodSaysSo() throws {
        let page = RecoveryReportPage.html(report(days: [day(1, .notScheduled, .noTasks)]))
        let notes = try elements(page).filter { classes($0).contains("empty-store") }.map { $0.stringValue ?? "" }
        #expect(notes == ["No range-of-motion measurement and no check-in is stored for this period."])
        #expect(try marked(["mark"], in: page).isEmpty)
    }

    @Test func singleMeasurementHasNoTrend() throws {
        let single = report(days: [day(1, .recorded)], measurements: [measurement(day: 0, range: 52)])
        #expect(single.trend == nil && single.weekChange == nil)
        let page = RecoveryReportPage.html(single)
        #expect(try marked(["mark", "measurement"], in: page) == ["2026-06-01"])
        #expect(
            try elements(page).filter {
                classes($0).contains("trend") && $0.name == "line" && attribute("x1", of: $0) != nil
            }.count == 1,
            "only the legend's sample line")
    }

    @Test func trendAndWeekChangeUseCleanResultsOnly() {
        let days = (1...15).map { day($0, .recorded) }
        let measurements =
            (0..<15).map { measurement(day: $0, range: 50 + Double($0)) }
            + [measurement(day: 14, range: 5, flags: ["moved-at-start"])]
        let report = report(days: days, measurements: measurements)
        let trend = report.trend
        #expect(trend?.firstDay == 0 && trend?.lastDay == 14)
        #expect(abs((trend?.first ?? 0) - 50) < 1e-9 && abs((trend?.last ?? 0) - 64) < 1e-9)
        #expect(report.weekChange?.firstWeek == 53 && report.weekChange?.latestWeek == 61)
    }

    @Test func clinicalKneeAnglesAreShownWhenPresent() throws {
        var knee = measurement(day: 0, range: 60)
        knee.angles += [
            .init(kind: "knee_extension", degrees: 5), .init(kind: "knee_flexion", degrees: 95),
            .init(kind: "knee_arc", degrees: 90),
        ]
        let page = RecoveryReportPage.html(report(days: [day(1, .recorded)], measurements: [knee]))
        let card = try elements(page).filter { classes($0).contains("card-note") }.map { $0.stringValue ?? "" }.first
        #expect(card == "2026-06-01 · knee extension 5° · knee flexion 95° · knee arc 90°")
    }

    @Test func monthsOfDaysStayWellFormed() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = calendar.date(from: DateComponents(year: 2026, month: 1, day: 1))!
        let days = (0..<400).map { offset -> RecoveryReport.Day in
            let parts = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: first)!)
            return RecoveryReport.Day(
                year: parts.year!, month: parts.month!, dayOfMonth: parts.day!,
                rangeOfMotion: offset % 7 == 0 ? .recorded : .notScheduled, adherence: .progress(0.8))
        }
        let measurements = stride(from: 0, to: 400, by: 7).map { measurement(day: $0, range: 40 + Double($0) / 10) }
        let page = RecoveryReportPage.html(report(days: days, measurements: measurements))
        #expect(try marked(["mark", "measurement"], in: page).count == measurements.count)
        #expect(try marked(["adherence-day"], in: page).count == 400)
    }

    // MARK: From the store

    /// A plan from 2026-06-07 in Paris, onboarded by a hostile name; the report made on 2026-06-20.
    private func store(consentBy name: String = "Ann Example") throws -> (InProcessRomdev, CareStore) {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        try romdev.run(["onboard", "--consent-by", name])
        return (romdev, try CareStore(path: romdev.directory.storePath, timeZone: romdev.timeZone))
    }

    private func record(_ store: CareStore, day: String, range: Double, flags: [String] = []) throws {
        let calendar = store.calendar
        let start = DateArgument(day)!.startOfDay(in: calendar)!
        let event = try #require(
            try store.fetchEvents(
                taskID: RecoverCarePlan.TaskID.rangeOfMotionCheck, from: start,
                to: start.addingTimeInterval(3600)
            ).first)
        let values = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: 3, finishDegrees: 4, minimumDegrees: 2, maximumDegrees: 2 + range,
            flags: flags, createdDate: start.addingTimeInterval(9 * 3600))
        try store.addOutcome(
            NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: values),
            now: start.addingTimeInterval(9 * 3600))
    }

    @Test func reportOfTheStoreMarksEachOutcomeOnItsDayAndMissedDays() throws {
        let (romdev, store) = try store(consentBy: "<img src=x onerror=alert(1)> & Co")
        for day in ["2026-06-07", "2026-06-08", "2026-06-10", "2026-06-14"] { try record(store, day: day, range: 50) }
        try record(store, day: "2026-06-12", range: 40, flags: ["unsteady"])
        for day in [7, 8, 9, 15] {
            try romdev.run(["checkin", "--pain", "4", "--sleep", "7", "--date", String(format: "2026-06-%02d", day)])
        }
        romdev.now = DateArgument("2026-06-21T10:00")!.date(in: store.calendar)!
        let page = try romdev.run(["report", "--output", "-"])
        #expect(
            try marked(["mark", "measurement"], in: page) == [
                "2026-06-07", "2026-06-08", "2026-06-10", "2026-06-12", "2026-06-14",
            ])
        #expect(try marked(["mark", "measurement", "flagged"], in: page) == ["2026-06-12"])
        #expect(try marked(["mark", "checkin"], in: page) == ["2026-06-07", "2026-06-08", "2026-06-09", "2026-06-15"])
        // Daily on days 0–6 (June 7–13), weekly on days 7, 14 (June 14, 21): June 21 is today, due.
        #expect(try marked(["day-status", "missed"], in: page) == ["2026-06-09", "2026-06-11", "2026-06-13"])
        #expect(try marked(["day-status", "due"], in: page) == ["2026-06-21"])
        #expect(try marked(["adherence-day"], in: page).first == "2026-06-07")
        #expect(try marked(["adherence-day"], in: page).last == "2026-06-21")
        let all = try elements(page)
        #expect(!all.contains { $0.name == "img" })
        #expect(
            all.contains {
                $0.name == "td" && $0.stringValue == "onboarding.consent.by <img src=x onerror=alert(1)> & Co"
                    || ($0.stringValue ?? "").contains("<img src=x onerror=alert(1)> & Co")
            })
    }

    @Test func periodOptionsSelectTheDays() throws {
        let (romdev, store) = try store()
        for day in ["2026-06-07", "2026-06-08", "2026-06-09"] { try record(store, day: day, range: 50) }
        romdev.now = DateArgument("2026-06-21T10:00")!.date(in: store.calendar)!
        let page = try romdev.run(["report", "--from", "2026-06-08", "--to", "2026-06-09"])
        #expect(try marked(["mark", "measurement"], in: page) == ["2026-06-08"])
        #expect(try marked(["adherence-day"], in: page) == ["2026-06-08"])
        let error = romdev.failure(["report", "--from", "2026-06-09", "--to", "2026-06-09"]) as? CommandFailure
        #expect(error.map { "\($0)" }?.contains("the period is empty") == true)
    }

    @Test func emptyStoreReportSaysSo() throws {
        let (romdev, _) = try store()
        let page = try romdev.run(["report"])
        #expect(try elements(page).contains { classes($0).contains("empty-store") })
        #expect(try marked(["adherence-day"], in: page) == ["2026-06-07"])
    }

    @Test func daylightSavingDaysAreOneColumnEach() throws {
        let romdev = try InProcessRomdev(now: Date(timeIntervalSince1970: 1_793_000_000))  // 2026-10-26 in Paris
        try romdev.run(["init", "--start", "2026-10-22", "--tz", "Europe/Paris"])
        try romdev.run(["onboard", "--consent-by", "Ann"])
        let store = try CareStore(path: romdev.directory.storePath, timeZone: romdev.timeZone)
        // 2026-10-25 has 25 hours in Paris.
        for day in ["2026-10-24", "2026-10-25", "2026-10-26"] { try record(store, day: day, range: 55) }
        try romdev.run(["checkin", "--pain", "2", "--sleep", "8", "--date", "2026-10-25"])
        let page = try romdev.run(["report", "--from", "2026-10-23", "--to", "2026-10-28"])
        #expect(
            try marked(["adherence-day"], in: page) == [
                "2026-10-23", "2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27",
            ])
        #expect(try marked(["mark", "measurement"], in: page) == ["2026-10-24", "2026-10-25", "2026-10-26"])
        #expect(try marked(["mark", "checkin"], in: page) == ["2026-10-25"])
    }

    @Test func outputFileIsWrittenWhole() throws {
        let (romdev, _) = try store()
        let path = romdev.directory.path + "/patient.html"
        #expect(try romdev.run(["report", "--output", path]) == "Wrote the report to \(path).\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try romdev.run(["report"])))
    }

    // MARK: The glance in `today`

    @Test func todayShowsTheTrendOfTheLatestMeasurements() throws {
        let (romdev, store) = try store()
        #expect(!(try romdev.run(["today"])).contains("ROM"))
        try record(store, day: "2026-06-07", range: 52)
        #expect(try romdev.run(["today"]).hasSuffix("ROM 52° (1 measurement)\n"))
        for (day, range) in [
            ("2026-06-08", 55.0), ("2026-06-10", 60), ("2026-06-12", 20), ("2026-06-14", 66), ("2026-06-21", 71),
        ] {
            try record(store, day: day, range: range, flags: range == 20 ? ["moved-at-start"] : [])
        }
        romdev.now = DateArgument("2026-06-21T10:00")!.date(in: store.calendar)!
        #expect(try romdev.run(["today"]).hasSuffix("ROM 52° → 71° over 14 days (5 measurements)\n"))
        #expect(
            try romdev.run(["today", "--date", "2026-06-10"]).hasSuffix("ROM 52° → 60° over 3 days (3 measurements)\n"))
    }

    @Test func glanceLineWording() {
        #expect(RangeOfMotionGlance.line(ranges: [], days: 0) == nil)
        #expect(RangeOfMotionGlance.line(ranges: [52, 53], days: 0) == "ROM 52° → 53° on one day (2 measurements)")
        #expect(RangeOfMotionGlance.line(ranges: [52, 71.4], days: 1) == "ROM 52° → 71° over 1 day (2 measurements)")
    }
}
