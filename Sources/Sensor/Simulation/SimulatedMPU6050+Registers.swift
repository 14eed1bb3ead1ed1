extension SimulatedMPU6050 {
    /// Back to power-on values: everything 0 except PWR_MGMT_1 (SLEEP) and WHO_AM_I.
    func resetRegisters() {
        registers = [UInt8](repeating: 0, count: 128)
        registers[Int(MPU6050Register.powerManagement1)] = MPU6050Bits.sleep
        registers[Int(MPU6050Register.whoAmI)] = scenario.part.whoAmI
        fifo.removeAll()
        interruptStatus = 0
        latest = [Int16](repeating: 0, count: 7)
        samplingOrigin = nil
        samplesTaken = 0
        fifoOriginSample = nil
    }

    func readRegister(_ register: UInt8) -> UInt8 {
        switch register {
        case MPU6050Register.interruptStatus:
            // Cleared by reading (register map §4.17).
            defer { interruptStatus = 0 }
            return interruptStatus
        case MPU6050Register.accelXHigh...0x48:
            let word = UInt16(bitPattern: latest[Int(register - MPU6050Register.accelXHigh) / 2])
            return register % 2 == 1 ? UInt8(word >> 8) : UInt8(word & 0xFF)
        case MPU6050Register.fifoCountHigh:
            return UInt8(fifo.count >> 8)
        case MPU6050Register.fifoCountHigh + 1:
            return UInt8(fifo.count & 0xFF)
        case MPU6050Register.fifoReadWrite:
            return fifo.pop()
        default:
            return registers[Int(register & 0x7F)]
        }
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) {
        let now = elapsedSeconds
        switch register {
        case MPU6050Register.powerManagement1:
            if value & MPU6050Bits.deviceReset != 0 {
                resetRegisters()
                return
            }
            registers[Int(register)] = value
            if value & MPU6050Bits.sleep != 0 {
                samplingOrigin = nil
                fifoOriginSample = nil
            } else if samplingOrigin == nil {
                restartSampling(at: now)
            }
        case MPU6050Register.sampleRateDivider, MPU6050Register.configuration:
            registers[Int(register)] = value
            if samplingOrigin != nil { restartSampling(at: now) }
        case MPU6050Register.userControl:
            if value & MPU6050Bits.userFIFOReset != 0 { fifo.removeAll() }
            // FIFO_RESET and SIG_COND_RESET clear themselves.
            registers[Int(register)] = value & ~(MPU6050Bits.userFIFOReset | 0x01)
        case MPU6050Register.whoAmI, MPU6050Register.interruptStatus, MPU6050Register.accelXHigh...0x48,
            MPU6050Register.fifoCountHigh, MPU6050Register.fifoCountHigh + 1, MPU6050Register.fifoReadWrite:
            return  // read-only
        default:
            registers[Int(register & 0x7F)] = value
        }
    }

    private func restartSampling(at now: Double) {
        samplingOrigin = now
        samplesTaken = 0
        fifoOriginSample = nil
    }
}
