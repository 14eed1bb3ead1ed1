import Foundation
import FusionAccuracy
import Sensor
import Testing

/// How the bench straps its boards on: as the wiring guide says (within hands' reach of it) or at
/// any rotation, each taking the same draws so that the rest of a trial is the same either way.
struct StrappingTests {
    /// The angle (degrees) between a board axis, mounted, and the segment axis the guide puts it on.
    private func angle(_ mounted: SIMD3<Double>, _ guide: SIMD3<Double>) -> Double {
        acos(min(1, max(-1, (mounted * guide).sum()))) * 180 / .pi
    }

    @Test func asGuidedTheBoardsXRunsAlongTheSegmentAndZPointsUp() {
        var random = SplitMix64(seed: 7)
        var largest = 0.0
        for _ in 0..<2000 {
            let mounting = Strapping.asGuided.mounting(&random)
            let x = mounting * SIMD3(1, 0, 0), z = mounting * SIMD3(0, 0, 1)
            largest = max(largest, angle(x, [1, 0, 0]), angle(z, [0, 0, 1]))
        }
        // Within the 30° hands allow, and not all on the dot.
        #expect(largest <= 30 + 1e-9)
        #expect(largest > 20)
    }

    @Test func atAnyRotationTheBoardsZPointsAnywhere() {
        var random = SplitMix64(seed: 7)
        let zs = (0..<2000).map { _ in Strapping.anyRotation.mounting(&random) * SIMD3(0, 0, 1) }
        // Uniform on the sphere: about half of them point down, some close to straight down.
        let down = zs.filter { $0.z < 0 }.count
        #expect((800...1200).contains(down))
        #expect(zs.contains { angle($0, [0, 0, -1]) < 10 })
    }

    @Test func bothDrawAlikeSoThatTheRestOfATrialIsTheSame() {
        var guided = SplitMix64(seed: 11), any = SplitMix64(seed: 11)
        _ = Strapping.asGuided.mounting(&guided)
        _ = Strapping.anyRotation.mounting(&any)
        #expect(guided.next() == any.next())
    }
}
