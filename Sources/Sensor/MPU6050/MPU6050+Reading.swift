extension MPU6050 {
    /// Bytes per FIFO record: accel x/y/z then gyro x/y/z, big-endian int16 (FIFO_EN = 0x78).
    static let fifoRecordSize = 12

    /// Where the stream stands on the sensor's sample clock.
    struct StreamState {
        /// Index of the next sample to deliver.
        var nextIndex = 0
        /// Host time at which `anchorIndex` was the next sample due; places samples after a gap.
        var anchorTime = 0.0
        var anchorIndex = 0
        /// Host time of the last read that delivered a sample (or of the start).
        var lastProgressTime = 0.0
        /// FIFO bytes of a record not yet complete (a chunk boundary fell inside it).
        var partialRecord: [UInt8] = []
        /// Samples decoded by a read that then failed; delivered first by the next read.
        var undelivered: [IMUSample] = []
        /// Host time of the first of consecutive reads that found the FIFO overflowed.
        var overflowingSince: Double?
        /// Die temperature at the last drain, °C: the FIFO holds no temperature, so a drain's
        /// samples carry the reading taken with them.
        var temperature = 25.0
    }

    /// Reads every sample produced since the last call.
    ///
    /// A thin wrapper over ``readSamples(into:)`` that returns fresh storage; loops that read on
    /// every tick use ``readSamples(into:)`` with a buffer they keep.
    public func readSamples() throws(MPU6050Error) -> SampleBatch {
        var samples: [IMUSample] = []
        let gap = try readSamples(into: &samples)
        return SampleBatch(samples: samples, gap: gap)
    }

    /// Reads every sample produced since the last call into `samples`, replacing its contents and
    /// keeping its capacity, so a caller that reuses one buffer reads without allocating.
    ///
    /// FIFO mode: one read of FIFO_COUNT (0x72, 2 bytes), the whole records in FIFO_R_W reads of at
    /// most 32 bytes, then one of INT_STATUS…TEMP_OUT (0x3A, 9 bytes: overflow flag and
    /// temperature). On overflow (a full FIFO, or FIFO_OFLOW set while the records were read) the
    /// FIFO's contents no longer start at a record boundary, so it is reset and the samples lost
    /// are reported as a `SampleGap`; the indices after it are placed from the host clock (to
    /// within one sample).
    ///
    /// Register mode: one burst read of INT_STATUS…GYRO_ZOUT_L (0x3A, 15 bytes); a sample is
    /// delivered when DATA_RDY is set, indexed by host time since `configure(_:)`.
    /// - Parameter samples: Receives the new samples, indices increasing. After a throw it is
    ///   empty: the samples decoded before the failure are delivered by the next call.
    /// - Returns: The samples lost just before the new ones, if the FIFO overflowed.
    /// - Throws: `.bus` on I2C failures, `.fifoStalled` when the FIFO stays empty longer than
    ///   `stallTimeoutSeconds`, `.fifoOverrun` when every read for `overrunTimeoutSeconds` found it
    ///   overflowed (the host reads too rarely).
    @discardableResult
    public func readSamples(into samples: inout [IMUSample]) throws(MPU6050Error) -> SampleGap? {
        samples.removeAll(keepingCapacity: true)
        guard let configuration, let decoder else { throw .notConfigured }
        if !stream.undelivered.isEmpty {
            samples.append(contentsOf: stream.undelivered)
            stream.undelivered.removeAll()
        }
        do {
            switch configuration.readout {
            case .fifo: return try drainFIFO(into: &samples, configuration: configuration, decoder: decoder)
            case .registers:
                try readRegisters(into: &samples, configuration: configuration, decoder: decoder)
                return nil
            }
        } catch {
            // Nothing decoded is lost or repeated: the next call delivers it first.
            stream.undelivered.append(contentsOf: samples)
            samples.removeAll(keepingCapacity: true)
            throw error
        }
    }

    func startFIFO() throws(MPU6050Error) {
        try write(0, to: MPU6050Register.fifoEnable)
        try resetFIFO()
        try write(MPU6050Bits.fifoAccel | MPU6050Bits.fifoGyro, to: MPU6050Register.fifoEnable)
        let now = clock.now
        stream = StreamState(anchorTime: now, lastProgressTime: now)
    }

    func startPolling() {
        let now = clock.now
        stream = StreamState(anchorTime: now, lastProgressTime: now)
    }

    /// USER_CTRL: FIFO off, FIFO_RESET (register map §4.27: effective while FIFO_EN is 0), FIFO on.
    private func resetFIFO() throws(MPU6050Error) {
        try write(0, to: MPU6050Register.userControl)
        try write(MPU6050Bits.userFIFOReset, to: MPU6050Register.userControl)
        try write(MPU6050Bits.userFIFOEnable, to: MPU6050Register.userControl)
    }

    private func drainFIFO(
        into samples: inout [IMUSample], configuration: MPU6050Configuration, decoder: IMUDecoder
    ) throws(MPU6050Error) -> SampleGap? {
        let rate = Double(configuration.sampleRateHz)
        try readIntoBuffer(MPU6050Register.fifoCountHigh, count: 2)
        let now = clock.now
        let count = Int(UInt16(readBuffer[0]) << 8 | UInt16(readBuffer[1]))
        let capacity = decoder.part.fifoCapacityBytes
        // A full FIFO has overflowed (or is about to): its contents no longer start at a record boundary.
        if count >= capacity { return try recoverFromOverflow(at: now, rate: rate, capacity: capacity) }

        // Read up to a record boundary, counting bytes of a record begun by an earlier read.
        let firstNew = samples.count
        let available = stream.partialRecord.count + count
        var remaining = available - available % Self.fifoRecordSize - stream.partialRecord.count
        while remaining > 0 {
            let chunk = min(I2CBlock.maximumLength, remaining)
            try readIntoBuffer(MPU6050Register.fifoReadWrite, count: chunk)
            remaining -= chunk
            stream.partialRecord.append(contentsOf: readBuffer[..<chunk])
            decodeWholeRecords(into: &samples, decoder: decoder, rate: rate, temperature: stream.temperature)
        }

        // Read after the records: FIFO_OFLOW (cleared by this read) then tells whether the FIFO
        // overflowed while they were read, a host stalled mid-drain; the oldest bytes were dropped
        // under the reads, so none of this drain's records can be trusted.
        try readIntoBuffer(MPU6050Register.interruptStatus, count: 9)
        if readBuffer[0] & MPU6050Bits.fifoOverflow != 0 {
            let suspect = samples.count - firstNew
            samples.removeLast(suspect)
            stream.nextIndex -= suspect
            return try recoverFromOverflow(at: clock.now, rate: rate, capacity: capacity)
        }
        stream.temperature = decoder.temperature(readBuffer, at: 7)
        for i in firstNew..<samples.count {
            samples[i].temperatureCelsius = stream.temperature
        }

        if samples.count == firstNew {
            let waited = now - stream.lastProgressTime
            if waited > stallTimeoutSeconds {
                throw .fifoStalled(address: address, devicePath: bus.devicePath, seconds: waited)
            }
        } else {
            stream.lastProgressTime = now
            stream.overflowingSince = nil
        }
        // The sample due next was produced around the time FIFO_COUNT was read.
        stream.anchorTime = now
        stream.anchorIndex = stream.nextIndex
        return nil
    }

    /// Resets the FIFO and accounts for the samples lost since `nextIndex`.
    /// - Throws: `.fifoOverrun` when the reads have found it overflowed for `overrunTimeoutSeconds`.
    private func recoverFromOverflow(at now: Double, rate: Double, capacity: Int) throws(MPU6050Error) -> SampleGap {
        let overflowingSince = stream.overflowingSince ?? now
        // A late read is a gap; reads that overflow every time will never deliver anything.
        if now - overflowingSince > overrunTimeoutSeconds {
            throw .fifoOverrun(
                address: address, devicePath: bus.devicePath, seconds: now - overflowingSince,
                fifoSeconds: Double(capacity / Self.fifoRecordSize) / rate)
        }
        try resetFIFO()
        // FIFO_OFLOW stays latched through the reset; reading clears it, so the next drain sees only
        // an overflow of its own.
        try readIntoBuffer(MPU6050Register.interruptStatus, count: 1)
        let resetTime = clock.now
        let produced = stream.anchorIndex + Int(((resetTime - stream.anchorTime) * rate).rounded())
        // A record begun in `partialRecord` belongs to sample `nextIndex`, which is lost too.
        let gap = SampleGap(startIndex: stream.nextIndex, count: max(0, produced - stream.nextIndex))
        stream.nextIndex = gap.startIndex + gap.count
        stream.anchorTime = resetTime
        stream.anchorIndex = stream.nextIndex
        stream.lastProgressTime = resetTime
        stream.partialRecord.removeAll(keepingCapacity: true)
        stream.overflowingSince = overflowingSince
        return gap
    }

    private func decodeWholeRecords(
        into samples: inout [IMUSample], decoder: IMUDecoder, rate: Double, temperature: Double
    ) {
        let size = Self.fifoRecordSize
        var offset = 0
        // Decoded in place: a local copy of the bytes would make `removeFirst` copy them.
        while stream.partialRecord.count - offset >= size {
            let index = stream.nextIndex
            samples.append(
                IMUSample(
                    index: index, timeSeconds: Double(index) / rate,
                    accelerationG: decoder.acceleration(stream.partialRecord, at: offset),
                    angularRateDPS: decoder.angularRate(stream.partialRecord, at: offset + 6),
                    temperatureCelsius: temperature))
            stream.nextIndex += 1
            offset += size
        }
        stream.partialRecord.removeFirst(offset)
    }

    private func readRegisters(
        into samples: inout [IMUSample], configuration: MPU6050Configuration, decoder: IMUDecoder
    ) throws(MPU6050Error) {
        let bytes = try readBlock(MPU6050Register.interruptStatus, count: 15)
        guard bytes[0] & MPU6050Bits.dataReady != 0 else { return }
        let rate = Double(configuration.sampleRateHz)
        // Sample n is due (n + 1) periods after the start, so the newest one is floor(elapsed × rate) − 1.
        let due = Int(((clock.now - stream.anchorTime) * rate).rounded(.down)) - 1
        let index = max(stream.nextIndex, stream.anchorIndex + due)
        stream.nextIndex = index + 1
        samples.append(
            IMUSample(
                index: index, timeSeconds: Double(index) / rate, accelerationG: decoder.acceleration(bytes, at: 1),
                angularRateDPS: decoder.angularRate(bytes, at: 9), temperatureCelsius: decoder.temperature(bytes, at: 7)
            ))
    }
}
