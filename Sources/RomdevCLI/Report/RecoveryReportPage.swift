import Care
import Foundation

/// The recovery report as one self-contained page: inline CSS and SVG, no script, nothing fetched.
/// The markup is also well-formed XML (XHTML syntax), so it can be checked with an XML parser.
///
/// Every chart shares one horizontal scale, a column per day, so a day reads straight down from
/// range of motion to pain and sleep to adherence. Each drawn measurement or check-in is one
/// element of class `mark` carrying its day in `data-day`.
enum RecoveryReportPage {
    /// The page for `report`.
    static func html(_ report: RecoveryReport) -> String {
        let axis = DayAxis(days: report.days)
        // About what a day's columns and a table row take, so a long history's page is not
        // copied again each time it outgrows its buffer.
        let estimate: Int = 40_000 + report.days.count * 1_200 + report.outcomes.count * 220
        var page = ""
        page.reserveCapacity(estimate)
        page += """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>Knee recovery report \(HTMLText.escape(period(report)))</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>

            """
        page += header(report)
        if report.isEmpty {
            page +=
                "<p class=\"empty-store\">No range-of-motion measurement and no check-in is stored for this period.</p>\n"
        }
        page += summary(report)
        page += section(
            "Range of motion", id: "range-of-motion", rangeOfMotionChart(report, axis: axis) + rangeOfMotionLegend)
        page += section("Pain and sleep", id: "pain-sleep", painSleepChart(report, axis: axis) + painSleepLegend)
        page += section("Adherence", id: "adherence", adherenceStrip(report, axis: axis) + adherenceLegend)
        page += section("Every outcome", id: "outcomes", outcomeTable(report.outcomes))
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    // MARK: Header and summary

    private static func period(_ report: RecoveryReport) -> String {
        guard let first = report.days.first, let last = report.days.last else { return "" }
        return first.date == last.date ? first.date : first.date + " – " + last.date
    }

    private static func header(_ report: RecoveryReport) -> String {
        let fields: [(String, String)] = [
            ("Device", report.deviceID),
            ("Limb", report.limb ?? "not recorded"),
            ("Plan start", report.planStart ?? "no care plan"),
            ("Period", period(report) + " (\(report.days.count) day\(report.days.count == 1 ? "" : "s"))"),
            ("Time zone", report.timeZone),
            ("Generated", report.generated),
        ]
        var html = "<header>\n<h1>Knee recovery report</h1>\n<dl class=\"facts\">\n"
        for (name, value) in fields {
            html += "<div><dt>\(name)</dt><dd>\(HTMLText.escape(value))</dd></div>\n"
        }
        return html + "</dl>\n</header>\n"
    }

    private static func summary(_ report: RecoveryReport) -> String {
        let measured = report.measurements
        let unscheduled = measured.filter(\.isUnscheduled).count
        let flagged = measured.filter { !$0.flags.isEmpty }.count
        let missed = report.days.filter { $0.rangeOfMotion == .missed }.count
        let asked = report.days.filter { $0.rangeOfMotion != .notScheduled }.count
        var cards: [(String, String, String)] = []
        if let latest = measured.last(where: { $0.range != nil }), let range = latest.range {
            let knee = latest.angles.filter { Self.clinicalKinds.contains($0.kind) }
                .map { "\(label(forKind: $0.kind)) \(degrees($0.degrees))" }
            cards.append(
                (
                    "Latest range of motion", degrees(range),
                    ([report.days[latest.day].date] + knee).joined(separator: " · ")
                ))
        } else {
            cards.append(("Latest range of motion", "–", "no measurement"))
        }
        if let change = report.weekChange {
            let delta = change.latestWeek - change.firstWeek
            cards.append(
                (
                    "First week → latest week", "\(signed(delta))",
                    "mean \(degrees(change.firstWeek)) → \(degrees(change.latestWeek))"
                ))
        } else {
            cards.append(("First week → latest week", "–", "needs measurements a week apart"))
        }
        var detail = "\(unscheduled) unscheduled, \(flagged) flagged"
        if measured.isEmpty { detail = "none stored" }
        cards.append(("Measurements", "\(measured.count)", detail))
        cards.append(("Missed measurement days", "\(missed)", "of \(asked) scheduled"))
        let checkInDays = Set(report.checkIns.map(\.day)).count
        cards.append(("Check-ins", "\(report.checkIns.count)", "on \(checkInDays) of \(report.days.count) days"))
        var html = "<section class=\"summary\">\n"
        for (title, value, note) in cards {
            html +=
                "<div class=\"card\"><div class=\"card-title\">\(title)</div>"
                + "<div class=\"card-value\">\(HTMLText.escape(value))</div>"
                + "<div class=\"card-note\">\(HTMLText.escape(note))</div></div>\n"
        }
        return html + "</section>\n"
    }

    private static func section(_ title: String, id: String, _ body: String) -> String {
        "<section class=\"block\" id=\"\(id)\">\n<h2>\(title)</h2>\n\(body)</section>\n"
    }

    // MARK: Range of motion

    /// The clinical knee angles, shown when a measurement has them.
    static let clinicalKinds = ["knee_extension", "knee_flexion", "knee_arc"]

    private static func rangeOfMotionChart(_ report: RecoveryReport, axis: DayAxis) -> String {
        let top = 14.0, plotHeight = 190.0
        let ranges = report.measurements.compactMap(\.range)
        let highest = max(90, ranges.max() ?? 0)
        let scale = ValueScale(top: top, height: plotHeight, maximum: (highest / 10).rounded(.up) * 10, unit: "°")
        let stripTop = top + plotHeight + 8
        let height = stripTop + 12 + 22
        var svg = axis.openSVG(height: height, label: "Range of motion in degrees per day")
        svg += scale.grid(axis: axis)
        for (index, day) in report.days.enumerated() where day.rangeOfMotion == .missed {
            svg +=
                "<rect class=\"missed-band\" x=\(q(axis.left(index))) y=\(q(top)) width=\(q(axis.step)) height=\(q(plotHeight))/>\n"
        }
        let clean = report.cleanMeasurements.filter { !$0.isUnscheduled }
        if clean.count > 1 {
            let points = clean.compactMap { m in m.range.map { "\(f(axis.center(m.day))),\(f(scale.y($0)))" } }
            svg += "<polyline class=\"series\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        if let trend = report.trend {
            svg +=
                "<line class=\"trend\" x1=\(q(axis.center(trend.firstDay))) y1=\(q(scale.y(trend.first)))"
                + " x2=\(q(axis.center(trend.lastDay))) y2=\(q(scale.y(trend.last)))><title>Trend: "
                + "\(degrees(trend.first)) → \(degrees(trend.last))</title></line>\n"
        }
        for measurement in report.measurements {
            svg += mark(measurement, report: report, x: axis.center(measurement.day), scale: scale, step: axis.step)
        }
        for (index, day) in report.days.enumerated() {
            svg += statusCell(day, x: axis.left(index), y: stripTop, width: axis.step)
        }
        svg += axis.labels(y: stripTop + 26)
        return svg + "</svg>\n"
    }

    private static func mark(
        _ m: RecoveryReport.Measurement, report: RecoveryReport, x: Double, scale: ValueScale, step: Double
    ) -> String {
        guard let range = m.range else { return "" }
        let y = scale.y(range)
        let size = min(6, max(2.2, step * 0.42))
        var classes = "mark measurement " + (m.isUnscheduled ? "unscheduled" : "scheduled")
        if !m.flags.isEmpty { classes += " flagged" }
        let day = report.days[m.day].date
        var title =
            "\(day) \(m.time)\(m.isUnscheduled ? " (unscheduled)" : ""): "
            + m.angles.map { "\(label(forKind: $0.kind)) \(degrees($0.degrees))" }.joined(separator: ", ")
        if !m.flags.isEmpty { title += "; flagged: " + m.flags.joined(separator: ", ") }
        let shape: String
        if !m.flags.isEmpty {
            let h = size * 1.25
            shape = "<path d=\"M\(f(x)) \(f(y - h))L\(f(x + h)) \(f(y + h * 0.8))L\(f(x - h)) \(f(y + h * 0.8))Z\"/>"
        } else if m.isUnscheduled {
            shape =
                "<path d=\"M\(f(x)) \(f(y - size))L\(f(x + size)) \(f(y))L\(f(x)) \(f(y + size))L\(f(x - size)) \(f(y))Z\"/>"
        } else {
            shape = "<circle cx=\(q(x)) cy=\(q(y)) r=\(q(size * 0.85))/>"
        }
        return
            "<g class=\"\(classes)\" data-day=\"\(day)\" data-range=\"\(f(range))\"><title>\(HTMLText.escape(title))</title>\(shape)</g>\n"
    }

    private static func statusCell(_ day: RecoveryReport.Day, x: Double, y: Double, width: Double) -> String {
        let gap = width > 6 ? 1.5 : 0
        let state = day.rangeOfMotion
        var cell =
            "<g class=\"day-status \(state.rawValue)\" data-day=\"\(day.date)\"><title>\(day.date): "
            + statusText(state) + "</title>"
        cell +=
            "<rect x=\(q(x + gap / 2)) y=\(q(y)) width=\(q(max(width - gap, 0.5))) height=\"10\" rx=\"\(width > 6 ? 2 : 0)\"/>"
        if state == .missed, width >= 8 {
            let cx = x + width / 2, cy = y + 5
            cell +=
                "<path class=\"cross\" d=\"M\(f(cx - 3)) \(f(cy - 3))L\(f(cx + 3)) \(f(cy + 3))M\(f(cx + 3)) \(f(cy - 3))L\(f(cx - 3)) \(f(cy + 3))\"/>"
        }
        return cell + "</g>\n"
    }

    private static func statusText(_ state: RecoveryReport.Scheduling) -> String {
        switch state {
        case .notScheduled: "no measurement scheduled"
        case .recorded: "measured as scheduled"
        case .missed: "scheduled measurement missed"
        case .due: "measurement due"
        }
    }

    private static let rangeOfMotionLegend = """
        <ul class="legend">
        <li><svg viewBox="0 0 14 14" width="14" height="14"><circle class="key-scheduled" cx="7" cy="7" r="4.5"/></svg>scheduled</li>
        <li><svg viewBox="0 0 14 14" width="14" height="14"><path class="key-unscheduled" d="M7 1.5L12.5 7L7 12.5L1.5 7Z"/></svg>unscheduled</li>
        <li><svg viewBox="0 0 14 14" width="14" height="14"><path class="key-flagged" d="M7 1.5L13 12L1 12Z"/></svg>flagged (see the table)</li>
        <li><svg viewBox="0 0 22 14" width="22" height="14"><line class="trend" x1="1" y1="10" x2="21" y2="4"/></svg>trend (clean results)</li>
        <li><span class="swatch recorded"></span>measured</li>
        <li><span class="swatch missed"></span>missed</li>
        <li><span class="swatch not-scheduled"></span>not scheduled</li>
        <li><span class="swatch due"></span>due</li>
        </ul>

        """

    // MARK: Pain and sleep

    private static func painSleepChart(_ report: RecoveryReport, axis: DayAxis) -> String {
        let top = 10.0, plotHeight = 120.0
        let scale = ValueScale(top: top, height: plotHeight, maximum: 12, unit: "")
        var svg = axis.openSVG(height: top + plotHeight + 24, label: "Pain (1 to 10) and sleep (hours) per day")
        svg +=
            "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
            + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\"/></pattern></defs>\n"
        let checkedDays = Set(report.checkIns.map(\.day))
        for (index, day) in report.days.enumerated() where !checkedDays.contains(index) {
            svg +=
                "<rect class=\"no-checkin\" data-day=\"\(day.date)\" x=\(q(axis.left(index))) y=\(q(top))"
                + " width=\(q(axis.step)) height=\(q(plotHeight))><title>\(day.date): no check-in</title></rect>\n"
        }
        svg += scale.grid(axis: axis)
        let barWidth = max(0.6, axis.step * 0.36)
        for checkIn in report.checkIns {
            let day = report.days[checkIn.day].date
            let center = axis.center(checkIn.day)
            var parts: [String] = []
            var mark = "<g class=\"mark checkin\" data-day=\"\(day)\""
            if let pain = checkIn.pain {
                mark += " data-pain=\"\(f(pain))\""
                parts.append("pain \(number(pain))")
            }
            if let sleep = checkIn.sleep {
                mark += " data-sleep=\"\(f(sleep))\""
                parts.append("sleep \(number(sleep)) h")
            }
            mark += "><title>\(day): \(parts.joined(separator: ", "))</title>"
            if let pain = checkIn.pain {
                mark += bar(class: "pain", x: center - barWidth, width: barWidth, value: pain, scale: scale)
            }
            if let sleep = checkIn.sleep {
                mark += bar(class: "sleep", x: center, width: barWidth, value: sleep, scale: scale)
            }
            svg += mark + "</g>\n"
        }
        svg += axis.labels(y: top + plotHeight + 16)
        return svg + "</svg>\n"
    }

    private static func bar(class name: String, x: Double, width: Double, value: Double, scale: ValueScale) -> String {
        let y = scale.y(min(max(value, 0), scale.maximum))
        return "<rect class=\"\(name)\" x=\(q(x)) y=\(q(y)) width=\(q(width)) height=\(q(scale.bottom - y))/>"
    }

    private static let painSleepLegend = """
        <ul class="legend">
        <li><span class="swatch pain"></span>pain (1–10)</li>
        <li><span class="swatch sleep"></span>sleep (hours)</li>
        <li><span class="swatch no-checkin"></span>no check-in</li>
        </ul>

        """

    // MARK: Adherence

    private static func adherenceStrip(_ report: RecoveryReport, axis: DayAxis) -> String {
        let rings = axis.step >= 12
        let cellHeight = rings ? min(axis.step, 22) : 14
        var svg = axis.openSVG(height: cellHeight + 22, label: "Adherence per day")
        for (index, day) in report.days.enumerated() {
            let cx = axis.center(index), cy = cellHeight / 2
            let (state, fraction): (String, Double?) =
                switch day.adherence {
                case .noTasks: ("no-tasks", nil)
                case .noEvents: ("no-events", nil)
                case .progress(let value): ("progress", min(max(value, 0), 1))
                }
            let percent =
                fraction.map { "\(Int(($0 * 100).rounded())) %" } ?? (state == "no-tasks" ? "no tasks" : "no events")
            var cell = "<g class=\"adherence-day \(state)\" data-day=\"\(day.date)\""
            if let fraction { cell += " data-fraction=\"\(f(fraction))\"" }
            cell += "><title>\(day.date): \(percent)</title>"
            if rings {
                let radius = cellHeight / 2 - 2.5
                cell += "<circle class=\"ring-back\" cx=\(q(cx)) cy=\(q(cy)) r=\(q(radius))/>"
                if let fraction, fraction > 0 {
                    let circumference = 2 * Double.pi * radius
                    cell +=
                        "<circle class=\"ring\" cx=\(q(cx)) cy=\(q(cy)) r=\(q(radius))"
                        + " stroke-dasharray=\"\(f(fraction * circumference)) \(f(circumference))\""
                        + " transform=\"rotate(-90 \(f(cx)) \(f(cy)))\"/>"
                }
            } else {
                let opacity = fraction.map { 0.15 + 0.85 * $0 } ?? 1
                cell +=
                    "<rect x=\(q(axis.left(index))) y=\"0\" width=\(q(axis.step)) height=\(q(cellHeight))"
                    + (fraction == nil ? "" : " fill-opacity=\"\(f(opacity))\"") + "/>"
            }
            svg += cell + "</g>\n"
        }
        svg += axis.labels(y: cellHeight + 14)
        return svg + "</svg>\n"
    }

    private static let adherenceLegend = """
        <ul class="legend">
        <li><span class="swatch progress"></span>share of the day's tasks done (the completion ring)</li>
        <li><span class="swatch no-tasks"></span>no task counted that day</li>
        </ul>

        """

    // MARK: Table

    private static func outcomeTable(_ rows: [RecoveryReport.OutcomeRow]) -> String {
        guard !rows.isEmpty else { return "<p class=\"none\">No outcome is stored for this period.</p>\n" }
        var html =
            "<table class=\"outcomes\">\n<thead><tr><th>Day</th><th>Recorded</th><th>Task</th><th>Values</th><th>Flags</th></tr></thead>\n<tbody>\n"
        for row in rows {
            html += row.flags.isEmpty ? "<tr>" : "<tr class=\"flagged\">"
            html +=
                "<td>\(HTMLText.escape(row.day))</td><td>\(HTMLText.escape(row.time))</td><td>\(HTMLText.escape(row.task))</td>"
            html += "<td>\(HTMLText.escape(row.values.joined(separator: ", ")))</td>"
            html += "<td>\(HTMLText.escape(row.flags.joined(separator: ", ")))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    // MARK: Numbers and names

    /// `71°`, rounded to a whole degree as charts are read.
    static func degrees(_ value: Double) -> String { number(value.rounded()) + "°" }

    private static func signed(_ value: Double) -> String {
        let rounded = value.rounded()
        return (rounded > 0 ? "+" : rounded < 0 ? "−" : "±") + number(abs(rounded)) + "°"
    }

    /// A value without trailing zeros, at most one decimal.
    private static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10 + 0
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(format: "%.1f", tenths)
    }

    /// A coordinate, two decimals at most.
    fileprivate static func f(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100 + 0
        return hundredths == hundredths.rounded() ? String(Int(hundredths)) : String(hundredths)
    }

    /// A coordinate as a quoted attribute value.
    fileprivate static func q(_ value: Double) -> String { "\"" + f(value) + "\"" }

    /// A kind as people read it: its last dotted word (`checkin.form.pain`: `pain`), words apart.
    static func label(forKind kind: String) -> String {
        let word = kind.split(separator: ".").last.map(String.init) ?? kind
        return word.replacingOccurrences(of: "_", with: " ")
    }
}

/// The shared horizontal scale: one column per day across the plot width.
private struct DayAxis {
    static let width = 900.0
    static let leftMargin = 40.0
    static let rightMargin = 8.0
    let days: [RecoveryReport.Day]

    var step: Double { (Self.width - Self.leftMargin - Self.rightMargin) / Double(max(days.count, 1)) }
    func left(_ index: Int) -> Double { Self.leftMargin + Double(index) * step }
    func center(_ index: Int) -> Double { left(index) + step / 2 }
    var right: Double { Self.width - Self.rightMargin }

    func openSVG(height: Double, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(RecoveryReportPage.f(height))\""
            + " role=\"img\" aria-label=\"\(label)\">\n"
    }

    /// Day labels spaced to stay readable: every day, every week, every month or every quarter.
    func labels(y: Double) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var svg = ""
        for (index, day) in days.enumerated() {
            let text: String
            switch days.count {
            case ...16:
                text = "\(day.dayOfMonth) \(months[day.month - 1])"
            case ...70:
                guard index % 7 == 0 else { continue }
                text = "\(day.dayOfMonth) \(months[day.month - 1])"
            case ...400:
                guard day.dayOfMonth == 1 || index == 0 else { continue }
                text = index == 0 || day.month == 1 ? "\(months[day.month - 1]) \(day.year)" : months[day.month - 1]
            default:
                guard (day.dayOfMonth == 1 && (day.month - 1) % 3 == 0) || index == 0 else { continue }
                text = index == 0 || day.month == 1 ? "\(months[day.month - 1]) \(day.year)" : months[day.month - 1]
            }
            // A label right at the start of an edge would be cut by the viewBox.
            let x = max(center(index), Self.leftMargin + 14)
            svg +=
                "<text class=\"day-label\" x=\"\(RecoveryReportPage.f(x))\" y=\"\(RecoveryReportPage.f(y))\">\(text)</text>\n"
        }
        return svg
    }
}

/// A vertical value scale from 0 at the bottom of the plot to `maximum` at its top.
private struct ValueScale {
    let top: Double
    let height: Double
    let maximum: Double
    let unit: String

    var bottom: Double { top + height }
    func y(_ value: Double) -> Double { bottom - height * min(max(value, 0), maximum) / maximum }

    /// Horizontal grid lines with their values at the left.
    func grid(axis: DayAxis) -> String {
        let step: Double = maximum <= 12 ? 2 : maximum <= 100 ? 10 : maximum <= 200 ? 20 : 50
        var svg = ""
        var value = 0.0
        while value <= maximum {
            let y = RecoveryReportPage.f(self.y(value))
            svg +=
                "<line class=\"grid\" x1=\"\(Int(DayAxis.leftMargin))\" y1=\"\(y)\" x2=\"\(RecoveryReportPage.f(axis.right))\" y2=\"\(y)\"/>"
                + "<text class=\"value-label\" x=\"\(Int(DayAxis.leftMargin) - 5)\" y=\"\(y)\">\(Int(value))\(unit)</text>\n"
            value += step
        }
        return svg
    }
}
