import Sensor

/// A configured driver on the register-level simulator.
struct SimulatedSensor {
    let simulator: SimulatedMPU6050
    let sensor: MPU6050

    init(_ scenario: SimulationScenario, clock: any MonotonicClock, faults: [SimulatedFault] = []) throws {
        simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
        faults.forEach(simulator.inject)
        sensor = try MPU6050(bus: simulator, address: scenario.address, clock: clock)
        try sensor.configure(.standard)
    }
}
