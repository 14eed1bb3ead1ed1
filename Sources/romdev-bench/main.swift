// `make bench`: prints figures for the care store, the sensor driver, the sampling loop, fusion and
// the daemon.
// `romdev-bench --thigh`: only the knee angles with the thigh sensor and the fusion costs.
// `make bench-broad`: `romdev-bench broad DIR` scores the BROAD traces in DIR.
import Foundation

if CommandLine.arguments.dropFirst().first == BroadBench.command {
    BroadBench.run(Array(CommandLine.arguments.dropFirst(2)))
}

if CommandLine.arguments.dropFirst().first == CareBench.peakResidentProbeOption {
    CareBench.peakResidentProbe(Array(CommandLine.arguments.dropFirst(2)))
}
if let at = CommandLine.arguments.firstIndex(of: SamplingBench.allocationProbeOption) {
    SamplingBench.allocationProbe(ticks: CommandLine.arguments.dropFirst(at + 1).first.flatMap { Int($0) } ?? 200)
    exit(0)
}
if CommandLine.arguments.contains(FusionBench.onlyOption) {
    FusionBench.run()
    exit(0)
}
if CommandLine.arguments.contains(FusionBench.thighOption) {
    FusionBench.thighSensor()
    FusionBench.cost()
    exit(0)
}
if CommandLine.arguments.contains(DaemonBench.onlyOption) {
    DaemonBench.run()
    exit(0)
}
CareBench.run()
SensorBench.run()
SamplingBench.run()
FusionBench.run()
DaemonBench.run()
