// `make report-demo`'s one flagged result. The simulated leg always moves cleanly, so the
// demonstration stores a result as the appliance would after an unsteady session:
// `report-demo STORE DAY` records it on DAY's range-of-motion event through the care store's
// one measurement path.
import Care
import CareStorage
import Foundation
import Fusion

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: report-demo STORE YYYY-MM-DD\n".utf8))
    exit(64)
}
do {
    let store = try CareStore(path: arguments[1], timeZone: .current)
    let calendar = store.calendar
    let parts = arguments[2].split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3,
        let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
    else {
        FileHandle.standardError.write(Data("report-demo: not a day: \(arguments[2])\n".utf8))
        exit(64)
    }
    let recorded = calendar.startOfDay(for: noon).addingTimeInterval(9 * 3600 + 20)
    let result = RangeOfMotionResult(start: 1.2, finish: 6.8, minimum: 0.4, maximum: 48.9, flags: .unsteady)
    // No event that day, or one already recorded, is the store's refusal, printed below.
    let target = try store.measurementTarget(.scheduled, at: recorded)
    try store.recordMeasurement(result, on: target, limb: nil, at: recorded)
    print("stored a flagged (unsteady) result on \(arguments[2])")
} catch {
    FileHandle.standardError.write(Data("report-demo: \(error)\n".utf8))
    exit(1)
}
