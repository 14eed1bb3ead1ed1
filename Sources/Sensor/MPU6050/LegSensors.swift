/// The sensors of one session on one I2C adapter: the shank's, and the thigh's when one is fitted
/// (at the other address, AD0 high), each driver on a handle of its own so that neither switches
/// the other's target address.
public struct LegSensors {
    public let shank: MPU6050
    public let thigh: MPU6050?

    public init(shank: MPU6050, thigh: MPU6050?) {
        self.shank = shank
        self.thigh = thigh
    }

    /// Identifies the shank's sensor, then the thigh's.
    /// - Throws: `LegSensorError` naming the sensor that failed.
    public func identify() throws(LegSensorError) {
        do throws(MPU6050Error) { try shank.identify() } catch { throw LegSensorError(.shank, error) }
        guard let thigh else { return }
        do throws(MPU6050Error) { try thigh.identify() } catch { throw LegSensorError(.thigh, error) }
    }

    /// Identifies both sensors first, so that a missing thigh sensor is found before the shank's is
    /// reset, then configures them alike, the shank's first.
    /// - Throws: `LegSensorError` naming the sensor that failed.
    public func configure(_ configuration: MPU6050Configuration) throws(LegSensorError) {
        try identify()
        do throws(MPU6050Error) { try shank.configure(configuration) } catch { throw LegSensorError(.shank, error) }
        guard let thigh else { return }
        do throws(MPU6050Error) { try thigh.configure(configuration) } catch { throw LegSensorError(.thigh, error) }
    }
}

/// A driver error with the sensor it came from. A thigh sensor that does not answer reads
/// `no MPU-6050 answers at 0x69 on /dev/i2c-1 (the thigh sensor): …`.
public struct LegSensorError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Sensor: String, Equatable, Sendable, Codable {
        case shank, thigh
    }

    public let sensor: Sensor
    public let error: MPU6050Error

    public init(_ sensor: Sensor, _ error: MPU6050Error) {
        self.sensor = sensor
        self.error = error
    }

    /// Nothing acknowledged the sensor's address.
    public var isMissing: Bool {
        guard case .bus(let bus) = error else { return false }
        return bus.errno == .remoteIO || bus.errno == .noSuchDeviceOrAddress
            || (bus.errno == .noSuchDevice && bus.operation != .open)
    }

    /// What failed, without the driver's error: `no MPU-6050 answers at 0x69 on /dev/i2c-1 (the
    /// thigh sensor)`, or `the thigh sensor failed`.
    public var summary: String {
        guard isMissing, case .bus(let bus) = error, let address = bus.address else {
            return "the \(sensor.rawValue) sensor failed"
        }
        return "no MPU-6050 answers at \(hex(address)) on \(bus.devicePath) (the \(sensor.rawValue) sensor)"
    }

    public var description: String {
        "\(summary): \(error)"
    }

    public var hint: String? {
        guard isMissing, sensor == .thigh else { return error.hint }
        return "check the thigh board's power, SDA/SCL wiring and that its AD0 is tied to 3V3 (0x69); "
            + "`i2cdetect -y 1` lists devices; without a thigh sensor, thigh_address = none (--thigh-address none)"
    }
}
