import TestSupport

extension TemporaryDirectory {
    /// The store path inside the directory.
    var storePath: String { path + "/care.sqlite" }
}
