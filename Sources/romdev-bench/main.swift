// `make bench`: prints figures for the care store, the sensor driver, the sampling loop and fusion.
import Foundation

if let at = CommandLine.arguments.firstIndex(of: SamplingBench.allocationProbeOption) {
    SamplingBench.allocationProbe(ticks: CommandLine.arguments.dropFirst(at + 1).first.flatMap { Int($0) } ?? 200)
    exit(0)
}
CareBench.run()
SensorBench.run()
SamplingBench.run()
FusionBench.run()
