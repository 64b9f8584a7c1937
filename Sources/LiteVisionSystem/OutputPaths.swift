/// The rules for the files and folders a command writes, checked together before any work starts, so that a
/// mistake in a path costs nothing and never costs an input:
///
/// - an empty path, or one naming the root folder, is refused;
/// - a file output that exists must be a regular file (a symbolic link to one is replaced by the new file, its
///   target left as it was); a directory, device, FIFO or socket is refused, never replaced;
/// - a folder output that exists must be a folder;
/// - no file output may be the same file as an input: existing files are compared by device and inode, so any
///   other name for an input (`./x`, `dir/../x`, a hard or symbolic link) is caught too;
/// - no two file outputs may name the same file (a file that does not exist yet is compared by its folder's
///   device and inode and its name);
/// - no file output may lie inside a protected folder (the model cache: files appear there while the command
///   runs, a downloaded model among them, so they cannot be compared with the inputs beforehand).
///
/// Nothing is opened or created: a FIFO or device is only looked at (`stat`), so checking never blocks.
///
/// ```swift
/// var outputs = OutputPaths(inputs: [video, model])
/// try outputs.claimFile(jsonPath, for: "--json")
/// try outputs.claimFile(motPath, for: "--mot")     // refused if it is jsonPath, the video or the model
/// ```
package struct OutputPaths {
    /// What tells two paths of the same file apart from two files.
    private enum Key: Hashable {
        /// An existing file.
        case file(device: UInt64, inode: UInt64)
        /// A file not made yet: its folder and its name in it.
        case entry(device: UInt64, inode: UInt64, name: String)
        /// A file in a folder not made yet: the folder's key and the name.
        case pending(folder: String, name: String)
    }

    /// The inputs that exist, by identity, with the path they were given as.
    private var inputs: [Key: String] = [:]
    /// The file outputs claimed so far, with what claimed them.
    private var claimed: [Key: String] = [:]
    /// The folder outputs claimed so far that do not exist yet (made by the command before it writes into them).
    private var pendingFolders: Set<String> = []
    /// The protected folders that exist, by identity, with the path they were given as.
    private var protectedFolders: [Key: String] = [:]

    /// Rules for outputs that must not be any of `inputs` (files or folders; those that do not exist are ignored:
    /// nothing can be written over them that was read), nor lie anywhere inside `protectedFolders`.
    package init(inputs: [String], protectedFolders: [String] = []) {
        for input in inputs where !input.isEmpty {
            if let key = Self.existingKey(input) { self.inputs[key] = input }
        }
        for folder in protectedFolders where !folder.isEmpty {
            if let key = Self.existingKey(folder) { self.protectedFolders[key] = folder }
        }
    }

    /// Checks that `path` may be written as a file, by the output `option` names (how messages name it:
    /// `"--json"`), and reserves it so that no later output can claim the same file.
    package mutating func claimFile(_ path: String, for option: String) throws(OutputPathError) {
        func refuse(_ reason: String) -> OutputPathError { OutputPathError(option: option, path: path, reason: reason) }
        if let problem = Self.rootOrEmptyProblem(path) { throw refuse(problem) }
        if let problem = Self.fileProblem(path) { throw refuse(problem) }
        let key: Key
        var info = stat()
        if stat(path, &info) == 0 {
            key = .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            if let input = inputs[key] {
                throw refuse("it is the input \(input); an output never replaces an input")
            }
        } else {
            let (folder, name) = Self.split(path)
            if stat(folder, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refuse("\(folder) is not a folder") }
                key = .entry(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), name: name)
            } else if pendingFolders.contains(folder) {
                key = .pending(folder: folder, name: name)
            } else {
                throw refuse("its folder \(folder) does not exist")
            }
        }
        if let other = claimed[key] {
            throw refuse("\(other) writes the same file; give each output its own path")
        }
        if let folder = protectedFolder(containing: Self.split(path).folder) {
            throw refuse(
                "it is inside the model cache \(folder), where LiteVision keeps its models; write it elsewhere")
        }
        claimed[key] = option
    }

    /// The protected folder that is `folder` or one of its ancestors (compared by identity, from the nearest
    /// folder that exists up to the root), or nil.
    private func protectedFolder(containing folder: String) -> String? {
        guard !protectedFolders.isEmpty else { return nil }
        var existing = folder
        while Self.existingKey(existing) == nil, existing != "/", existing != "." {
            existing = Self.split(existing).folder
        }
        var current = existing
        var previous: Key?
        // Up through `..` (physical parents, whatever links the path took) until the root is its own parent.
        for _ in 0..<4096 {
            guard let key = Self.existingKey(current), key != previous else { return nil }
            if let protected = protectedFolders[key] { return protected }
            previous = key
            current += current.hasSuffix("/") ? ".." : "/.."
        }
        return nil
    }

    /// The identity of what `path` names now, or nil when nothing is there.
    private static func existingKey(_ path: String) -> Key? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Checks that `path` may be used as a folder the output `option` writes files into (made if missing).
    /// Claim each file written in it with ``claimFile(_:for:)`` and `path + "/" + name`.
    package mutating func claimFolder(_ path: String, for option: String) throws(OutputPathError) {
        if let problem = Self.rootOrEmptyProblem(path) {
            throw OutputPathError(option: option, path: path, reason: problem)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            pendingFolders.insert(Self.trimmed(path))
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputPathError(
                option: option, path: path,
                reason: "it exists and is \(fileKindDescription(info.st_mode)), not a folder")
        }
    }

    /// Why `path` cannot be replaced by a new regular file, judged from the path alone and what is there now; nil
    /// when it can (it is missing, a regular file, or a symbolic link to one).
    package static func fileProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        guard !path.hasSuffix("/") else { return "it names a folder, not a file" }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else { return nil }
        return "it exists and is \(fileKindDescription(info.st_mode)); refusing to replace it"
    }

    /// "the path is empty" or "it is the root folder", or nil.
    private static func rootOrEmptyProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        var info = stat(), root = stat()
        if stat(path, &info) == 0, stat("/", &root) == 0, info.st_dev == root.st_dev, info.st_ino == root.st_ino {
            return "it is the root folder"
        }
        return nil
    }

    /// The folder holding `path` (`.` for a bare name) and the name in it.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (trimmed(String(path[..<slash])), String(path[path.index(after: slash)...]))
    }

    /// `folder` without trailing slashes (`/` for the root).
    private static func trimmed(_ folder: String) -> String {
        var folder = Substring(folder)
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}

/// An output path a command cannot use: which option gave it, the path, and why.
package struct OutputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the command names the output (`"--json"`).
    package var option: String
    /// The path as given.
    package var path: String
    /// Why it cannot be written, in words that fit after a colon.
    package var reason: String

    /// An output path refused for `reason`.
    package init(option: String, path: String, reason: String) {
        self.option = option
        self.path = path
        self.reason = reason
    }

    /// "cannot write out.json (--json): it is the input out.json; an output never replaces an input".
    package var description: String {
        "cannot write \(path.isEmpty ? "\"\"" : path) (\(option)): \(reason)"
    }
}
