import Testing

@testable import Sensor

@Suite struct MPU6050ConfigurationTests {
    @Test func defaultsMatchTheStandardConfiguration() throws {
        let configuration = try MPU6050Configuration()
        #expect(configuration == .standard)
        #expect(configuration.sampleRateHz == 200)
        #expect(configuration.sampleRateDividerValue == 4)
        #expect(configuration.configurationValue == 3)
        #expect(configuration.gyroConfigurationValue == 0x08)
        #expect(configuration.accelConfigurationValue == 0x08)
        #expect(configuration.description == "200 Hz, low-pass 44 Hz, ±500 °/s, ±4 g, fifo")
    }

    @Test(arguments: [4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000])
    func acceptsRatesDividingOneKilohertz(rate: Int) throws {
        let configuration = try MPU6050Configuration(sampleRateHz: rate)
        #expect(1000 / (Int(configuration.sampleRateDividerValue) + 1) == rate)
    }

    @Test(arguments: [0, 3, 300, 333, 1001, 2000, -200])
    func rejectsOtherRates(rate: Int) {
        #expect(throws: MPU6050ConfigurationError.unsupportedSampleRate(rate)) {
            try MPU6050Configuration(sampleRateHz: rate)
        }
    }

    @Test func registerValuesRoundTrip() throws {
        for filter in MPU6050Configuration.LowPassFilter.allCases {
            for gyro in MPU6050Configuration.GyroRange.allCases {
                for accel in MPU6050Configuration.AccelRange.allCases {
                    let c = try MPU6050Configuration(
                        sampleRateHz: 100, lowPassFilter: filter, gyroRange: gyro, accelRange: accel)
                    let back = MPU6050Configuration(
                        sampleRateDivider: c.sampleRateDividerValue, configuration: c.configurationValue,
                        gyroConfiguration: c.gyroConfigurationValue,
                        accelConfiguration: c.accelConfigurationValue, readout: .fifo)
                    #expect(back == c)
                }
            }
        }
    }

    @Test func powerOnRegistersAreNotAConfiguration() {
        #expect(
            MPU6050Configuration(
                sampleRateDivider: 0, configuration: 0, gyroConfiguration: 0, accelConfiguration: 0,
                readout: .registers) == nil)
    }
}

@Suite struct MPU6050PartTests {
    @Test(arguments: [
        (UInt8(0x68), MPU6050Part.mpu6050), (0x70, .mpu6500), (0x71, .mpu9250), (0x73, .mpu9255),
        (0x12, .icm20602), (0xAF, .icm20608), (0xAC, .icm20601), (0x98, .icm20689), (0x03, .icm20789),
        (0x02, .icm20789), (0x69, .mpu6050),
    ])
    func identifiesTheFamily(whoAmI: UInt8, part: MPU6050Part) {
        #expect(MPU6050Part(whoAmI: whoAmI) == part)
    }

    @Test(arguments: [UInt8(0x00), 0x72, 0xFF, 0x34, 0x19])
    func rejectsOthers(whoAmI: UInt8) {
        #expect(MPU6050Part(whoAmI: whoAmI) == nil)
    }

    @Test func everyPartAnswersItsOwnIdentity() {
        for part in MPU6050Part.allCases {
            #expect(MPU6050Part(whoAmI: part.whoAmI) == part)
        }
    }

    @Test func temperatureFormulaDiffersByPart() {
        // MPU-6050: −521 LSB at 35 °C (product spec §6.3).
        #expect(abs(MPU6050Part.mpu6050.temperatureCelsius(raw: -521) - 35) < 0.01)
        #expect(MPU6050Part.mpu6500.temperatureCelsius(raw: 0) == 21)
        #expect(MPU6050Part.icm20602.temperatureCelsius(raw: 0) == 25)
        for part in MPU6050Part.allCases {
            let raw = part.temperatureRaw(celsius: 31.25)
            #expect(abs(part.temperatureCelsius(raw: raw) - 31.25) < 0.01)
        }
    }

    @Test func onlyTheMPU6050LacksAccelConfig2() {
        #expect(!MPU6050Part.mpu6050.hasAccelConfiguration2)
        #expect(MPU6050Part.allCases.filter(\.hasAccelConfiguration2).count == MPU6050Part.allCases.count - 1)
    }
}
