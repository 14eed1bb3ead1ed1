/// Register addresses of the MPU-6050 family. Register map RM-MPU-6000A-00 rev 4.2 unless noted;
/// the newer parts (MPU-6500, MPU-9250, ICM-206xx) keep these addresses.
public enum MPU6050Register {
    /// SMPLRT_DIV (0x19), §4.2. Sample rate = gyro output rate / (1 + SMPLRT_DIV).
    public static let sampleRateDivider: UInt8 = 0x19
    /// CONFIG (0x1A), §4.3. EXT_SYNC_SET[5:3], DLPF_CFG[2:0].
    public static let configuration: UInt8 = 0x1A
    /// GYRO_CONFIG (0x1B), §4.4. FS_SEL[4:3].
    public static let gyroConfiguration: UInt8 = 0x1B
    /// ACCEL_CONFIG (0x1C), §4.5. AFS_SEL[4:3].
    public static let accelConfiguration: UInt8 = 0x1C
    /// ACCEL_CONFIG2 (0x1D): the accelerometer's own low-pass filter, A_DLPF_CFG[2:0]. MPU-6500
    /// family only (MPU-6500 register map §4.7); reserved on the MPU-6050.
    public static let accelConfiguration2: UInt8 = 0x1D
    /// FIFO_EN (0x23), §4.6. Which measurements are written to the FIFO.
    public static let fifoEnable: UInt8 = 0x23
    /// INT_ENABLE (0x38), §4.16.
    public static let interruptEnable: UInt8 = 0x38
    /// INT_STATUS (0x3A), §4.17. Cleared by reading it.
    public static let interruptStatus: UInt8 = 0x3A
    /// ACCEL_XOUT_H (0x3B), §4.17; the 14 bytes 0x3B…0x48 are accel x/y/z, temperature, gyro x/y/z,
    /// big-endian int16, from one sampling instant when read in one burst.
    public static let accelXHigh: UInt8 = 0x3B
    /// TEMP_OUT_H (0x41), §4.18.
    public static let temperatureHigh: UInt8 = 0x41
    /// GYRO_XOUT_H (0x43), §4.19.
    public static let gyroXHigh: UInt8 = 0x43
    /// USER_CTRL (0x6A), §4.27.
    public static let userControl: UInt8 = 0x6A
    /// PWR_MGMT_1 (0x6B), §4.28. Reset value 0x40: the chip wakes up asleep.
    public static let powerManagement1: UInt8 = 0x6B
    /// FIFO_COUNTH (0x72), §4.30; FIFO_COUNTL follows at 0x73. Bytes in the FIFO, big-endian.
    public static let fifoCountHigh: UInt8 = 0x72
    /// FIFO_R_W (0x74), §4.31. The FIFO's data port; reads do not advance the register address.
    public static let fifoReadWrite: UInt8 = 0x74
    /// WHO_AM_I (0x75), §4.32.
    public static let whoAmI: UInt8 = 0x75
}

/// Bit fields of the registers above, named after the register map.
public enum MPU6050Bits {
    /// PWR_MGMT_1 DEVICE_RESET: resets every register; clears itself.
    public static let deviceReset: UInt8 = 0x80
    /// PWR_MGMT_1 SLEEP.
    public static let sleep: UInt8 = 0x40
    /// PWR_MGMT_1 CLKSEL = 1: PLL with the X gyro as reference (recommended over the internal
    /// oscillator, ±1 % over temperature).
    public static let clockPLLGyroX: UInt8 = 0x01
    /// USER_CTRL FIFO_EN.
    public static let userFIFOEnable: UInt8 = 0x40
    /// USER_CTRL FIFO_RESET: empties the FIFO while FIFO_EN is 0; clears itself.
    public static let userFIFOReset: UInt8 = 0x04
    /// FIFO_EN TEMP_FIFO_EN.
    public static let fifoTemperature: UInt8 = 0x80
    /// FIFO_EN XG_FIFO_EN | YG_FIFO_EN | ZG_FIFO_EN.
    public static let fifoGyro: UInt8 = 0x70
    /// FIFO_EN ACCEL_FIFO_EN.
    public static let fifoAccel: UInt8 = 0x08
    /// INT_ENABLE / INT_STATUS FIFO_OFLOW.
    public static let fifoOverflow: UInt8 = 0x10
    /// INT_ENABLE / INT_STATUS DATA_RDY.
    public static let dataReady: UInt8 = 0x01
}
