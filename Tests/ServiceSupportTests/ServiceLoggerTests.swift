import Foundation
import Glibc
import ServiceSupport
import Testing

/// A pipe whose write end a logger writes to.
private final class Capture {
    let readEnd: CInt
    private(set) var writeEnd: CInt

    init() {
        var ends: [CInt] = [0, 0]
        pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        // Closed once only: by then the number may belong to a descriptor of a test running
        // alongside.
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Everything written so far (the pipe is far from full in these tests).
    func text() -> String {
        close(writeEnd)
        writeEnd = -1
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result += buffer[..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }
}

@Suite("Service logger")
struct ServiceLoggerTests {
    @Test func prefixesEachLineWithItsSyslogPriority() {
        let capture = Capture()
        let logger = ServiceLogger(minimumLevel: .debug, descriptor: capture.writeEnd)
        logger.error("store write failed")
        logger.warning("sensor missing")
        logger.notice("ready")
        logger.info("chime")
        logger.debug("edge")
        #expect(capture.text() == "<3>store write failed\n<4>sensor missing\n<5>ready\n<6>chime\n<7>edge\n")
    }

    @Test func dropsLevelsBelowTheMinimumWithoutEvaluatingThem() {
        let capture = Capture()
        let logger = ServiceLogger(minimumLevel: .notice, descriptor: capture.writeEnd)
        var evaluated = false
        logger.debug(
            {
                evaluated = true
                return "hidden"
            }())
        logger.info("hidden too")
        logger.notice("shown")
        #expect(!evaluated)
        #expect(capture.text() == "<5>shown\n")
    }

    @Test func multiLineMessageStaysOneEntry() {
        #expect(ServiceLogger.line(.error, "first\nsecond\r\nthird") == "<3>first second third\n")
    }

    @Test func levelNamesRoundTrip() {
        for level in LogLevel.allCases {
            #expect(LogLevel(name: level.description) == level)
        }
        #expect(LogLevel(name: "WARNING") == .warning)
        #expect(LogLevel(name: "verbose") == nil)
        #expect(LogLevel.error < LogLevel.debug)
    }
}
