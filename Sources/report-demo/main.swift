// `make report-demo`'s one flagged result. The simulated leg always moves cleanly, so the
// demonstration stores a result as the appliance would after an unsteady session:
// `report-demo STORE DAY` records it on DAY's range-of-motion event through the care store.
import Care
import CareStorage
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: report-demo STORE YYYY-MM-DD\n".utf8))
    exit(64)
}
do {
    let store = try CareStore(path: arguments[1], timeZone: .current)
    let calendar = store.calendar
    let parts = arguments[2].split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else {
        FileHandle.standardError.write(Data("report-demo: not a day: \(arguments[2])\n".utf8))
        exit(64)
    }
    let day = calendar.dayInterval(containing: noon)
    guard let event = try store.fetchEvents(taskID: RecoverCarePlan.TaskID.rangeOfMotionCheck, from: day.start, to: day.end).first else {
        FileHandle.standardError.write(Data("report-demo: no range-of-motion event on \(arguments[2])\n".utf8))
        exit(1)
    }
    let recorded = day.start.addingTimeInterval(9 * 3600 + 20)
    let values = RecoverCarePlan.rangeOfMotionValues(
        startDegrees: 1.2, finishDegrees: 6.8, minimumDegrees: 0.4, maximumDegrees: 48.9,
        limb: try store.carePlanSettings()?.limb.rawValue, flags: ["unsteady"], createdDate: recorded)
    try store.addOutcome(NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: values), now: recorded)
    print("stored a flagged (unsteady) result on \(arguments[2])")
} catch {
    FileHandle.standardError.write(Data("report-demo: \(error)\n".utf8))
    exit(1)
}
