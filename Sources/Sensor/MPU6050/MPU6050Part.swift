/// A member of the MPU-6050 family, told apart by WHO_AM_I (0x75).
///
/// Cheap "MPU-6050" boards often carry an MPU-6500 or an ICM part, which differ in the accelerometer
/// low-pass register and the temperature formula; the driver branches on these properties.
public enum MPU6050Part: String, CaseIterable, Sendable {
    case mpu6050 = "MPU-6050/6000"
    case mpu6500 = "MPU-6500"
    case mpu9250 = "MPU-9250"
    case mpu9255 = "MPU-9255"
    case icm20602 = "ICM-20602"
    case icm20608 = "ICM-20608"
    case icm20601 = "ICM-20601"
    case icm20689 = "ICM-20689"
    case icm20789 = "ICM-20789"

    /// Identifies a part from its WHO_AM_I value, or nil for anything else.
    ///
    /// For the MPU-6050 only bits 6:1 are the identity (0x34 << 1), so bits 7 and 0 are ignored;
    /// the value does not follow the AD0 pin (a sensor at 0x69 still answers 0x68).
    public init?(whoAmI: UInt8) {
        switch whoAmI {
        case 0x70: self = .mpu6500
        case 0x71: self = .mpu9250
        case 0x73: self = .mpu9255
        case 0x12: self = .icm20602
        case 0xAF: self = .icm20608
        case 0xAC: self = .icm20601
        case 0x98: self = .icm20689
        case 0x02, 0x03: self = .icm20789
        case _ where whoAmI & 0x7E == 0x68: self = .mpu6050
        default: return nil
        }
    }

    /// The WHO_AM_I value the part answers (for the ICM-20789, its current revision's).
    public var whoAmI: UInt8 {
        switch self {
        case .mpu6050: 0x68
        case .mpu6500: 0x70
        case .mpu9250: 0x71
        case .mpu9255: 0x73
        case .icm20602: 0x12
        case .icm20608: 0xAF
        case .icm20601: 0xAC
        case .icm20689: 0x98
        case .icm20789: 0x03
        }
    }

    /// Whether the accelerometer has its own low-pass register, ACCEL_CONFIG2 (0x1D).
    public var hasAccelConfiguration2: Bool {
        self != .mpu6050
    }

    /// FIFO size in bytes, used as a backstop to the FIFO_OFLOW flag. MPU-6050 1024 (PS §7.17),
    /// MPU-6500/9250/9255 512 (their product specs). For the ICM parts it errs high (1024, 4096
    /// for the ICM-20689), since a low value would report overflows that did not happen.
    public var fifoCapacityBytes: Int {
        switch self {
        case .mpu6050: 1024
        case .mpu6500, .mpu9250, .mpu9255: 512
        case .icm20689: 4096
        case .icm20602, .icm20608, .icm20601, .icm20789: 1024
        }
    }

    /// Die temperature in °C from TEMP_OUT.
    ///
    /// MPU-6050: TEMP_OUT / 340 + 36.53 (register map §4.18). MPU-6500/9250: TEMP_OUT / 333.87 + 21
    /// (their register maps, room-temperature offset 0). ICM-206xx/20789: TEMP_OUT / 326.8 + 25.
    public func temperatureCelsius(raw: Int16) -> Double {
        Double(raw) / temperatureSensitivity + temperatureOffsetCelsius
    }

    /// The TEMP_OUT reading for a die temperature; the inverse of `temperatureCelsius(raw:)`.
    func temperatureRaw(celsius: Double) -> Int16 {
        let raw = ((celsius - temperatureOffsetCelsius) * temperatureSensitivity).rounded()
        return Int16(max(-32768, min(32767, raw)))
    }

    private var temperatureSensitivity: Double {
        switch self {
        case .mpu6050: 340
        case .mpu6500, .mpu9250, .mpu9255: 333.87
        case .icm20602, .icm20608, .icm20601, .icm20689, .icm20789: 326.8
        }
    }

    private var temperatureOffsetCelsius: Double {
        switch self {
        case .mpu6050: 36.53
        case .mpu6500, .mpu9250, .mpu9255: 21
        case .icm20602, .icm20608, .icm20601, .icm20689, .icm20789: 25
        }
    }
}
