extension ApplianceDaemon {
    /// Re-reads the configuration file (SIGHUP, systemd's `ExecReload=`): the reminder times,
    /// quiet hours, time zone and clock-sync rule apply at once; the store, sensor, GPIO and
    /// sample-rate keys were used to open devices and files at start-up, so a change to them
    /// waits for a restart (the log names them). A file that does not load leaves the running
    /// configuration as it is. The service manager is told `RELOADING=1`, then `READY=1`.
    func reloadConfiguration() {
        guard let load = parts.loadConfiguration else { return }
        parts.output.notify([.reloading])
        do {
            let loaded = try load()
            var running = settings.configuration
            let waiting = Self.keysNeedingRestart(running, loaded)
            running.reminders = loaded.reminders
            running.quietHours = loaded.quietHours
            running.timeZone = loaded.timeZone
            running.requireClockSync = loaded.requireClockSync
            settings.configuration = running
            policy = Self.policy(running, store: parts.store)
            reminderDay = nil
            refreshRequested = true
            let note = waiting.isEmpty ? "" : "; \(waiting.joined(separator: ", ")) change at the next restart"
            log(.notice, "configuration reloaded\(note)")
        } catch {
            log(.error, "configuration not reloaded, the running one stays: \(error)")
        }
        let wall = parts.wallClock.now
        let status = statusLine(at: wall)
        lastStatus = status
        parts.output.notify([.ready, .status(status)])
    }

    /// The keys whose new values only a restart applies, by their names in the file.
    static func keysNeedingRestart(_ running: ApplianceConfiguration, _ loaded: ApplianceConfiguration) -> [String] {
        var keys: [String] = []
        if running.storePath != loaded.storePath { keys.append("store") }
        if running.i2cBus != loaded.i2cBus { keys.append("i2c_bus") }
        if running.i2cAddress != loaded.i2cAddress { keys.append("i2c_address") }
        if running.thighAddress != loaded.thighAddress { keys.append("thigh_address") }
        if running.sampleRateHz != loaded.sampleRateHz { keys.append("sample_rate") }
        if running.gpio != loaded.gpio { keys.append("the GPIO keys") }
        return keys
    }
}
