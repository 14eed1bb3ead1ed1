import CareStorage
import Foundation
import Testing

@testable import RomdevCLI

/// The care commands run in process on a real store, with a fixed clock in Paris.
@Suite struct CareCommandTests {
    // MARK: - init and onboarding

    @Test func initIsIdempotent() throws {
        let romdev = try InProcessRomdev()
        let first = try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        #expect(first.hasPrefix("Created the care plan in \(romdev.directory.storePath)\n"))
        #expect(first.contains("start 2026-06-07, limb left, time zone Europe/Paris"))
        let before = try romdev.snapshot()
        let second = try romdev.run(["init", "--start", "2027-01-01", "--limb", "right", "--tz", "UTC"])
        #expect(second.hasPrefix("Already initialised; nothing changed"))
        #expect(second.contains("start 2026-06-07, limb left, time zone Europe/Paris"))
        #expect(try romdev.snapshot() == before)
    }

    @Test func commandsOtherThanInitNeedAStore() throws {
        let romdev = try InProcessRomdev()
        let failure = try #require(romdev.failure(["today"]) as? CommandFailure)
        #expect(failure.what == "no care store at \(romdev.directory.storePath) (from ROMDEV_STORE)")
        #expect(failure.hint?.contains("romdev init") == true)
        #expect(!FileManager.default.fileExists(atPath: romdev.directory.storePath))
    }

    @Test func todayBeforeOnboardingShowsOnlyOnboarding() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        #expect(
            try romdev.run(["today"]) == """
                Care feed for 2026-06-07 (Europe/Paris)
                Onboarding is not done yet: only onboarding is shown.

                Onboard [onboarding]
                  You'll need to agree to some terms and conditions before we get started!
                  #0    all day       not done

                Adherence: 0.00 [----------] 0%
                Next: romdev onboard --consent-by NAME

                """)
    }

    @Test func checkinBeforeOnboardingIsRefused() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["checkin", "--pain", "3", "--sleep", "7"]) as? CommandFailure)
        #expect(failure.description.contains("before onboarding is done"))
        #expect(failure.hint == "run 'romdev onboard --consent-by NAME' first")
        #expect(try romdev.snapshot() == before)
    }

    @Test func onboardingTwiceIsRefused() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["onboard", "--consent-by", "Ann"]) as? CommandFailure)
        #expect(
            failure.description == "could not record onboarding: onboarding is already done (2026-06-07T09:30:00+02:00)"
        )
        #expect(try romdev.snapshot() == before)
    }

    // MARK: - The day's feed

    @Test func todayAfterACheckin() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        #expect(
            try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
                == "Recorded the check-in for 2026-06-07 (occurrence 0): pain 3, sleep 7 h\n")
        #expect(
            try romdev.run(["today"]) == """
                Care feed for 2026-06-07 (Europe/Paris)

                Check In [checkin]
                  #0    08:00–09:00   done: pain 3, sleep 7 h
                Range Of Motion [rangeOfMotionCheck]
                  #0    all day       not done

                Adherence: 0.50 [#####-----] 50%

                """)
    }

    @Test func todayAsJSON() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7.5"])
        let json = try romdev.run(["today", "--json", "--date", "2026-06-07"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["date"] as? String == "2026-06-07")
        #expect(object["time_zone"] as? String == "Europe/Paris")
        #expect(object["onboarding_done"] as? Bool == true)
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["id"] as? String } == ["checkin", "rangeOfMotionCheck"])
        let event = try #require((tasks[0]["events"] as? [[String: Any]])?.first)
        #expect(event["start"] as? String == "2026-06-07T08:00:00+02:00")
        #expect(event["end"] as? String == "2026-06-07T09:00:00+02:00")
        let values = try #require((event["outcome"] as? [String: Any])?["values"] as? [[String: Any]])
        #expect(values.map { $0["kind"] as? String } == ["checkin.form.pain", "checkin.form.sleep"])
        #expect(values[1]["value"] as? Double == 7.5)
        #expect(values[1]["units"] as? String == "h")
        let adherence = try #require(object["adherence"] as? [String: Any])
        #expect(adherence["state"] as? String == "progress")
        #expect(adherence["fraction"] as? Double == 0.5)
        // Keys in the documented order.
        #expect(
            json.hasPrefix(
                "{\n  \"date\": \"2026-06-07\",\n  \"time_zone\": \"Europe/Paris\",\n  \"onboarding_done\": true,\n  \"tasks\": ["
            ))
    }

    @Test func laterDaysShowWeeklyRangeOfMotion() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let dayEight = try romdev.run(["today", "--date", "2026-06-15"])
        #expect(!dayEight.contains("Range Of Motion"))
        let dayFifteen = try romdev.run(["today", "--date", "2026-06-21"])
        #expect(dayFifteen.contains("Range Of Motion [rangeOfMotionCheck]\n  #8    all day"))
    }

    // MARK: - Refused values leave the store unchanged

    @Test(arguments: [
        (["checkin", "--pain", "0", "--sleep", "7"], "pain must be a whole number from 1 to 10, got 0"),
        (["checkin", "--pain", "11", "--sleep", "7"], "pain must be a whole number from 1 to 10, got 11"),
        (["checkin", "--pain", "2.5", "--sleep", "7"], "pain must be a whole number from 1 to 10, got 2.5"),
        (["checkin", "--pain", "3", "--sleep", "13"], "sleep must be hours from 0 to 12 in steps of 0.5, got 13"),
        (["checkin", "--pain", "3", "--sleep", "-1"], "sleep must be hours from 0 to 12 in steps of 0.5, got -1"),
        (
            ["checkin", "--pain", "3", "--sleep", "7", "--date", "2026-06-06"],
            "task 'checkin' has no event on 2026-06-06"
        ),
        (["outcome", "delete", "--task", "nosuch", "--occurrence", "0"], "no task 'nosuch'"),
        (
            ["outcome", "delete", "--task", "checkin", "--occurrence", "5"],
            "task 'checkin' has no outcome for occurrence 5"
        ),
        (["events", "--task", "nosuch", "--from", "2026-06-07", "--to", "2026-06-08"], "no task 'nosuch'"),
        (
            ["events", "--task", "checkin", "--from", "2026-06-08", "--to", "2026-06-07"],
            "--to 2026-06-07 must be after --from 2026-06-08"
        ),
        (["outcomes", "--task", "nosuch"], "no task 'nosuch'"),
        (
            ["adherence", "--from", "2026-06-07", "--to", "2026-06-07"],
            "--to 2026-06-07 must be after --from 2026-06-07"
        ),
        (["task", "add", "checkin", "--element", "start=2026-06-07,every=1d"], "task 'checkin' already exists"),
        (["task", "add", "x", "--element", "start=2026-06-07,end=2026-06-01,every=1d"], "is not after its start"),
        (
            ["task", "add", "x", "--element", "start=2026-06-07,every=1h,duration=allday"],
            "needs an interval of whole days"
        ),
        (["task", "update", "nosuch", "--title", "X"], "no task 'nosuch'"),
        (["task", "update", "checkin", "--effective", "2026-06-07T07:00"], "would orphan outcomes"),
        (["task", "delete", "nosuch"], "no task 'nosuch'"),
        (["task", "delete", "onboarding"], "cannot be deleted: it records the patient's consent"),
        (["task", "add", "spam", "--element", "start=2000-01-01,every=1s"], "at most 96 events a day"),
        (["task", "update", "checkin", "--element", "start=2026-06-09,every=10m"], "this one has up to 144"),
    ])
    func refusedValuesChangeNothing(arguments: [String], why: String) throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(arguments) as? CommandFailure)
        #expect(failure.description.contains(why), "\(failure)")
        #expect(try romdev.snapshot() == before)
    }

    @Test func deletingTheOnboardingTaskIsRefusedAndConsentStillGates() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["task", "delete", "onboarding"]) as? CommandFailure)
        #expect(
            failure.description
                == "could not delete task 'onboarding': task 'onboarding' cannot be deleted: it records the patient's consent"
        )
        #expect(failure.hint?.contains("outcome delete --task onboarding") == true)
        #expect(romdev.failure(["checkin", "--pain", "3", "--sleep", "7"]) is CommandFailure)
        #expect(try romdev.snapshot() == before)
    }

    @Test func secondCheckinOnOneDayIsRefusedUntilDeleted() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["checkin", "--pain", "4", "--sleep", "6"]) as? CommandFailure)
        #expect(failure.description == "could not record the check-in: the check-in of 2026-06-07 is already recorded")
        #expect(failure.hint == "to replace it, first run 'romdev outcome delete --task checkin --occurrence 0'")
        #expect(try romdev.snapshot() == before)
        #expect(
            try romdev.run(["outcome", "delete", "--task", "checkin", "--occurrence", "0"])
                == "Deleted the outcome of 'checkin' occurrence 0 (event 2026-06-07T08:00).\n")
        try romdev.run(["checkin", "--pain", "4", "--sleep", "6"])
        #expect(try romdev.run(["outcomes", "--task", "checkin"]).contains("pain 4, sleep 6 h"))
    }

    @Test func deletedTaskCannotBeUpdatedOrReused() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["task", "add", "walk", "--element", "start=2026-06-07T18:00,every=1d,duration=30m"])
        #expect(
            try romdev.run(["task", "delete", "walk"]) == "Deleted task 'walk'; its versions and outcomes are kept.\n")
        let before = try romdev.snapshot()
        #expect(romdev.failure(["task", "delete", "walk"]) is CommandFailure)
        #expect(romdev.failure(["task", "update", "walk", "--title", "Walk"]) is CommandFailure)
        #expect(romdev.failure(["task", "add", "walk", "--element", "start=2026-06-07,every=1d"]) is CommandFailure)
        #expect(try romdev.snapshot() == before)
    }

    // MARK: - Tasks

    @Test func addListAndUpdateATask() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        #expect(
            try romdev.run([
                "task", "add", "walk", "--title", "Walk", "--instructions", "Ten minutes outside.",
                "--element", "start=2026-06-07T18:00,end=2026-06-21T00:00,every=1d,duration=30m,text=Evening",
            ]) == "Added task 'walk', effective 2026-06-07T18:00:00+02:00.\n")
        let listing = try romdev.run(["tasks"])
        #expect(
            listing.contains(
                """
                walk  Walk
                  version 1, effective 2026-06-07T18:00:00+02:00, impacts adherence
                  Ten minutes outside.
                  --element 'start=2026-06-07T18:00,end=2026-06-21T00:00,every=1d,duration=30m,text=Evening'
                """))
        romdev.now = romdev.now.addingTimeInterval(86_400)
        #expect(
            try romdev.run([
                "task", "update", "walk", "--element", "start=2026-06-07T19:00,every=2d,duration=1h",
                "--effective", "2026-06-09",
            ])
                == "Updated task 'walk': version 2, effective 2026-06-09T00:00:00+02:00.\n")
        let events = try romdev.run(["events", "--task", "walk", "--from", "2026-06-07", "--to", "2026-06-12"])
        #expect(
            events == """
                #0    2026-06-07 18:00–18:30   not done
                #1    2026-06-08 18:00–18:30   not done
                #1    2026-06-09 19:00–20:00   not done
                #2    2026-06-11 19:00–20:00   not done

                """)
        let json = try romdev.run(["tasks", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let walk = try #require(tasks.first { $0["id"] as? String == "walk" })
        #expect(walk["version"] as? Int == 2)
        #expect(walk["title"] as? String == "Walk")
        let element = try #require((walk["elements"] as? [[String: Any]])?.first)
        #expect(element["spec"] as? String == "start=2026-06-07T19:00,every=2d,duration=1h")
        #expect(element["every"] as? String == "2d")
    }

    // MARK: - Listings and export

    @Test(arguments: [
        ["adherence", "--from", "1582-10-15", "--to", "9999-12-31"],
        ["adherence", "--from", "2020-01-01", "--to", "2030-01-10"],
        ["events", "--task", "checkin", "--from", "2020-01-01", "--to", "2030-01-10"],
    ])
    func aWindowLongerThanTenYearsIsAUsageError(arguments: [String]) throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let failure = try #require(romdev.failure(arguments) as? CommandFailure)
        #expect(failure.exitStatus == 64)
        #expect(failure.why?.contains("is longer than 3660 days") == true, "\(failure)")
    }

    @Test func tenYearsOfAdherenceIsAnswered() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let lines = try romdev.run(["adherence", "--from", "2026-06-06", "--to", "2036-06-06"]).split(separator: "\n")
        #expect(lines.count == 3653)
        #expect(lines[1] == "2026-06-07  0.00 [----------] 0%")
    }

    @Test func adherenceOverDays() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        #expect(
            try romdev.run(["adherence", "--from", "2026-06-06", "--to", "2026-06-09"]) == """
                2026-06-06  no tasks
                2026-06-07  0.50 [#####-----] 50%
                2026-06-08  0.00 [----------] 0%

                """)
        let json = try romdev.run(["adherence", "--from", "2026-06-06", "--to", "2026-06-08", "--json"])
        #expect(
            json == """
                {
                  "time_zone": "Europe/Paris",
                  "days": [
                    {
                      "date": "2026-06-06",
                      "state": "no_tasks",
                      "fraction": null
                    },
                    {
                      "date": "2026-06-07",
                      "state": "progress",
                      "fraction": 0.5
                    }
                  ]
                }

                """)
    }

    @Test func outcomesFilteredByWindow() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        try romdev.run(["checkin", "--pain", "2", "--sleep", "8", "--date", "2026-06-08"])
        let all = try romdev.run(["outcomes", "--task", "checkin", "--json"])
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(all.utf8)) as? [[String: Any]])
        #expect(outcomes.map { $0["occurrence"] as? Int } == [0, 1])
        let second = try romdev.run(["outcomes", "--from", "2026-06-08", "--to", "2026-06-09"])
        #expect(
            second.hasPrefix("checkin #1  2026-06-08T08:00  pain 2, sleep 8 h  (recorded 2026-06-07T09:30:00+02:00)"))
        #expect(!second.contains("checkin #0"))
        #expect(try romdev.run(["outcomes", "--to", "2026-06-01"]) == "No outcomes.\n")
    }

    @Test func exportCSVHasOneRowPerValue() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        let csv = try romdev.run(["export", "--format", "csv"])
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(lines[0] == OutcomeTable.columns.joined(separator: ","))
        #expect(lines.count == 5)
        let deviceID = try CareStore(path: romdev.directory.storePath, timeZone: romdev.timeZone).storeMetadata()
            .deviceID
        let pain = lines[3].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(pain[0] == deviceID.uuidString)
        #expect(pain[1] == "checkin")
        #expect(
            Array(pain[3...]) == [
                "0", "2026-06-07T08:00:00+02:00", "2026-06-07T09:00:00+02:00", "2026-06-07T09:30:00+02:00",
                "0", "checkin.form.pain", "integer", "3", "", "2026-06-07T09:30:00+02:00",
            ])
        #expect(lines[2].contains(",onboarding.consent.by,text,Ann Example,,"))
        #expect(try romdev.run(["outcomes", "--csv"]) == csv)
    }

    @Test func exportJSONToAFile() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["task", "add", "note", "--element", "start=2026-06-07,every=1d,duration=allday"])
        let path = romdev.directory.path + "/export.json"
        #expect(
            try romdev.run(["export", "--format", "json", "--output", path]) == "Exported 1 outcomes to \(path).\n")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["time_zone"] as? String == "Europe/Paris")
        #expect(UUID(uuidString: object["device_id"] as? String ?? "") != nil)
        let outcome = try #require((object["outcomes"] as? [[String: Any]])?.first)
        #expect(outcome["task_id"] as? String == "onboarding")
        #expect(outcome["event_start"] as? String == "2026-06-07T00:00:00+02:00")
        #expect(outcome["event_end"] as? String == "2026-06-07T23:59:59+02:00")
        let failure = romdev.failure([
            "export", "--format", "json", "--output", romdev.directory.path + "/no/such/dir/x.json",
        ])
        #expect((failure as? CommandFailure)?.what.hasPrefix("could not write ") == true)
    }
}
