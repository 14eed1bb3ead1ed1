extension MPU6050 {
    /// Reads samples for `seconds` of the sensor's clock after `configure(_:)`, sleeping on the
    /// driver's clock between reads, and hands each non-empty batch to `body`. Stops once the
    /// samples delivered and the gaps reported cover `seconds`; the last batch is trimmed to it.
    /// - Parameter pollIntervalSeconds: Time between reads; by default 50 ms in FIFO mode (10
    ///   samples at 200 Hz, far inside the FIFO's 0.43 s) and half a sample period when polling
    ///   registers.
    /// - Throws: `MPU6050Error` from the driver, or whatever `body` throws.
    public func record(
        seconds: Double, pollIntervalSeconds: Double? = nil, _ body: (SampleBatch) throws -> Void
    ) throws {
        guard let configuration else { throw MPU6050Error.notConfigured }
        let total = Int((seconds * Double(configuration.sampleRateHz)).rounded())
        let interval =
            pollIntervalSeconds
            ?? (configuration.readout == .fifo ? 0.05 : configuration.samplePeriodSeconds / 2)
        while stream.nextIndex < total {
            clock.sleep(seconds: interval)
            var batch = try readSamples()
            batch.samples.removeAll { $0.index >= total }
            if let gap = batch.gap, gap.startIndex + gap.count > total {
                batch.gap?.count = max(0, total - gap.startIndex)
            }
            if !batch.samples.isEmpty || batch.gap != nil { try body(batch) }
        }
    }
}
