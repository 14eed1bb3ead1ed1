extension SimulatedMPU6050 {
    /// The low-pass setting in CONFIG (DLPF_CFG).
    private var lowPassCode: UInt8 {
        registers[Int(MPU6050Register.configuration)] & 0x07
    }

    /// Seconds between samples: gyro output rate (8 kHz with DLPF_CFG 0 or 7, else 1 kHz) over
    /// 1 + SMPLRT_DIV, stretched by the sample-clock error.
    var samplePeriodSeconds: Double {
        let gyroRate: Double = lowPassCode == 0 || lowPassCode == 7 ? 8000 : 1000
        let divider = Double(registers[Int(MPU6050Register.sampleRateDivider)]) + 1
        return divider / gyroRate / (1 + scenario.errors.sampleClockError)
    }

    /// Takes every sample due up to `now`. After a long quiet spell only the last FIFO-full of
    /// samples is computed: earlier ones would be overwritten anyway.
    func advance(to now: Double) {
        guard let origin = samplingOrigin else { return }
        let period = samplePeriodSeconds
        let due = Int(((now - origin) / period).rounded(.down))
        guard due > samplesTaken else { return }
        let recordSize = fifoRecordSize
        let keep = recordSize > 0 ? scenario.part.fifoCapacityBytes / recordSize + 2 : 1
        if due - samplesTaken > keep {
            if fifoFilling, recordSize > 0 { interruptStatus |= MPU6050Bits.fifoOverflow }
            samplesTaken = due - keep
        }
        while samplesTaken < due {
            samplesTaken += 1
            // The stream starts with the first record the FIFO keeps, not with the register write
            // that enabled it: FIFO_EN may be written a sample or two later on a busy host.
            if fifoOriginSample == nil, fifoFilling, fifoRecordSize > 0 {
                fifoOriginSample = samplesTaken
                legTime?.start(at: origin + Double(samplesTaken - 1) * period)
            }
            let number = samplesTaken - (fifoOriginSample ?? 1)
            // On a shared leg, the leg's time at this sample's host instant; on its own, the same
            // thing counted on the board's stream (one period before its first record is 0).
            let t = legTime?.seconds(atHostTime: origin + Double(samplesTaken) * period) ?? Double(number + 1) * period
            takeSample(at: t, noise: Self.noise(seed: scenario.seed, sample: number))
        }
    }

    /// An independent noise stream for each sample number, so that samples the FIFO drops (a host
    /// stall) or never takes do not shift the noise of the samples after them.
    static func noise(seed: UInt64, sample: Int) -> SplitMix64 {
        // Multiplying by an odd constant and mixing are both one-to-one: each sample gets its own seed.
        var mixer = SplitMix64(seed: seed ^ (UInt64(bitPattern: Int64(sample)) &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }

    private var fifoFilling: Bool {
        registers[Int(MPU6050Register.userControl)] & MPU6050Bits.userFIFOEnable != 0 && !fifoStuck
    }

    /// Bytes per FIFO record for the current FIFO_EN.
    private var fifoRecordSize: Int {
        let enable = registers[Int(MPU6050Register.fifoEnable)]
        var size = enable & MPU6050Bits.fifoAccel != 0 ? 6 : 0
        if enable & MPU6050Bits.fifoTemperature != 0 { size += 2 }
        for bit: UInt8 in [0x40, 0x20, 0x10] where enable & bit != 0 { size += 2 }
        return size
    }

    /// Gyro and accelerometer bandwidth (Hz) and group delay (s) for the current filter registers.
    /// MPU-6050: DLPF_CFG for both (register map §4.3). Newer parts: DLPF_CFG for the gyro and
    /// A_DLPF_CFG in ACCEL_CONFIG2 for the accelerometer (MPU-6500 register map §4.6–4.7, used for
    /// the ICM parts too).
    private var lowPassFilters: (gyroHz: Double, gyroDelay: Double, accelHz: Double, accelDelay: Double) {
        let code = Int(lowPassCode)
        guard scenario.part.hasAccelConfiguration2 else {
            let index = code == 7 ? 0 : code
            return (
                [256.0, 188, 98, 42, 20, 10, 5][index], [0.98, 1.9, 2.8, 4.8, 8.3, 13.4, 18.6][index] / 1000,
                [260.0, 184, 94, 44, 21, 10, 5][index], [0.0, 2.0, 3.0, 4.9, 8.5, 13.8, 19.0][index] / 1000
            )
        }
        let accelCode = Int(registers[Int(MPU6050Register.accelConfiguration2)] & 0x07)
        return (
            [250.0, 184, 92, 41, 20, 10, 5, 3600][code], [0.97, 2.9, 3.9, 5.9, 9.9, 17.85, 33.48, 0.17][code] / 1000,
            [460.0, 184, 92, 41, 20, 10, 5, 460][accelCode],
            [1.94, 5.80, 7.80, 11.80, 19.80, 35.70, 66.96, 1.94][accelCode] / 1000
        )
    }

    /// - Parameter t: Scenario time: seconds on the sensor's sample clock since the FIFO stream
    ///   started (or, before that, since sampling started), so the streamed samples depend on
    ///   their number only, never on host timing.
    private func takeSample(at t: Double, noise: SplitMix64) {
        var noise = noise
        let errors = scenario.errors
        let (gyroBandwidth, gyroDelay, accelBandwidth, accelDelay) = lowPassFilters

        let motion = scenario.motion
        let temperature = errors.temperature.celsius(atSeconds: t)
        let warming = temperature - 25
        let atGyro = motion.state(atSeconds: t - gyroDelay)
        let trueRate = atGyro.angularRateDPS
        let trueForce = motion.state(atSeconds: t - accelDelay).specificForceG

        let gyroSigma = errors.gyroNoiseDensity * gyroBandwidth.squareRoot()
        let accelSigma = errors.accelNoiseDensity * accelBandwidth.squareRoot()
        let gyroOffset: SIMD3<Double> = errors.gyroOffsetDPS + errors.gyroOffsetDriftPerCelsius * warming
        let gyroNoise: SIMD3<Double> = gyroSigma * Self.gaussian3(&noise)
        let rate: SIMD3<Double> =
            errors.gyroSensitivity * trueRate + errors.gyroAccelerationSensitivity * atGyro.specificForceG
            + gyroOffset + gyroNoise
        let accelOffset: SIMD3<Double> = errors.accelOffsetG + errors.accelOffsetDriftPerCelsius * warming
        let accelNoise: SIMD3<Double> = accelSigma * Self.gaussian3(&noise)
        let force: SIMD3<Double> = errors.accelSensitivity * trueForce + accelOffset + accelNoise

        let gyroRange =
            MPU6050Configuration.GyroRange(
                rawValue: (registers[Int(MPU6050Register.gyroConfiguration)] >> 3) & 0x03) ?? .dps250
        let accelRange =
            MPU6050Configuration.AccelRange(
                rawValue: (registers[Int(MPU6050Register.accelConfiguration)] >> 3) & 0x03) ?? .g2
        let accelRaw = quantise(force * accelRange.lsbPerG)
        let gyroRaw = quantise(rate * gyroRange.lsbPerDegreePerSecond)
        let temperatureRaw = scenario.part.temperatureRaw(celsius: temperature)
        // In place: the simulator samples at up to 1 kHz, and a new array each time would allocate.
        (latest[0], latest[1], latest[2], latest[3]) = (accelRaw.0, accelRaw.1, accelRaw.2, temperatureRaw)
        (latest[4], latest[5], latest[6]) = (gyroRaw.0, gyroRaw.1, gyroRaw.2)
        interruptStatus |= MPU6050Bits.dataReady
        if fifoFilling { pushRecord() }
    }

    /// Writes the enabled measurements in register order (accel, temperature, gyro x, y, z); when
    /// full, the oldest bytes go and FIFO_OFLOW is set (register map §4.31).
    private func pushRecord() {
        let enable = registers[Int(MPU6050Register.fifoEnable)]
        let before = fifo.count
        if enable & MPU6050Bits.fifoAccel != 0 {
            for i in 0..<3 { fifo.append(bigEndian: latest[i]) }
        }
        if enable & MPU6050Bits.fifoTemperature != 0 { fifo.append(bigEndian: latest[3]) }
        if enable & 0x40 != 0 { fifo.append(bigEndian: latest[4]) }
        if enable & 0x20 != 0 { fifo.append(bigEndian: latest[5]) }
        if enable & 0x10 != 0 { fifo.append(bigEndian: latest[6]) }
        guard fifo.count > before else { return }
        let excess = fifo.count - scenario.part.fifoCapacityBytes
        if excess > 0 {
            fifo.dropFirst(excess)
            interruptStatus |= MPU6050Bits.fifoOverflow
        }
    }

    private static func gaussian3(_ noise: inout SplitMix64) -> SIMD3<Double> {
        SIMD3(noise.nextGaussian(), noise.nextGaussian(), noise.nextGaussian())
    }

    private func quantise(_ value: SIMD3<Double>) -> (Int16, Int16, Int16) {
        func one(_ x: Double) -> Int16 {
            Int16(max(-32768, min(32767, x.rounded())))
        }
        return (one(value.x), one(value.y), one(value.z))
    }
}
