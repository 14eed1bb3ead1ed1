#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error number from the C library, as a raw-value struct so that a value this type never named
/// still round-trips.
///
/// Printed as `strerror` text followed by the symbolic name, e.g. `Remote I/O error (EREMOTEIO)`.
/// Matches in `catch` clauses: `catch Errno.interrupted`.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after a C call that reported failure.
    public static var current: Errno {
        Errno(rawValue: errno)
    }

    /// Text from `strerror` plus the symbolic name, e.g. `Permission denied (EACCES)`.
    public var description: String {
        let text = strerror(rawValue).map { String(cString: $0) } ?? "Unknown error \(rawValue)"
        return "\(text) (\(symbolicName))"
    }

    /// The C constant's name, e.g. `EREMOTEIO`, or `errno 123` for a value without a name here.
    public var symbolicName: String {
        Errno.names[rawValue] ?? "errno \(rawValue)"
    }

    public static func ~= (pattern: Errno, error: any Error) -> Bool {
        (error as? Errno) == pattern
    }

    /// Operation not permitted. The corresponding C constant is `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// No such file or directory. The corresponding C constant is `ENOENT`.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// Interrupted system call. The corresponding C constant is `EINTR`.
    public static let interrupted = Errno(rawValue: EINTR)
    /// Input/output error. The corresponding C constant is `EIO`.
    public static let ioError = Errno(rawValue: EIO)
    /// No such device or address; some I2C adapters report a NACK in the address phase this way.
    /// The corresponding C constant is `ENXIO`.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// Bad file descriptor. The corresponding C constant is `EBADF`.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// Resource temporarily unavailable. The corresponding C constant is `EAGAIN`.
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// Permission denied. The corresponding C constant is `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// File exists. The corresponding C constant is `EEXIST`.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// Device or resource busy. The corresponding C constant is `EBUSY`.
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// No such device. The corresponding C constant is `ENODEV`.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// Invalid argument. The corresponding C constant is `EINVAL`.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// Inappropriate ioctl for device. The corresponding C constant is `ENOTTY`.
    public static let notTypewriter = Errno(rawValue: ENOTTY)
    /// Protocol error. The corresponding C constant is `EPROTO`.
    public static let protocolError = Errno(rawValue: EPROTO)
    /// Operation not supported. The corresponding C constant is `EOPNOTSUPP`.
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// Connection timed out; I2C adapters use it for a bus that stays busy. The corresponding C
    /// constant is `ETIMEDOUT`.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// Remote I/O error; Linux I2C adapters (i2c-bcm2835 among them) report a NACK this way.
    /// The corresponding C constant is `EREMOTEIO`.
    public static let remoteIO = Errno(rawValue: EREMOTEIO)

    private static let names: [CInt: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
        ENXIO: "ENXIO", E2BIG: "E2BIG", EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM",
        EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST", ENODEV: "ENODEV",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE",
        ENOTTY: "ENOTTY", ENOSPC: "ENOSPC", EROFS: "EROFS", EPIPE: "EPIPE", ERANGE: "ERANGE",
        ENOSYS: "ENOSYS", EPROTO: "EPROTO", EOVERFLOW: "EOVERFLOW", EOPNOTSUPP: "EOPNOTSUPP",
        ETIMEDOUT: "ETIMEDOUT", EREMOTEIO: "EREMOTEIO", ESHUTDOWN: "ESHUTDOWN",
        EFBIG: "EFBIG", EXDEV: "EXDEV", ENAMETOOLONG: "ENAMETOOLONG", EDQUOT: "EDQUOT",
        ENOTSOCK: "ENOTSOCK", EADDRINUSE: "EADDRINUSE", ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET",
    ]
}
