import FoundationEssentials
import LiteVisionEvaluation
import LiteVisionSystem

/// The folders `litevision eval` reads: class folders, sequence files.
enum EvalFolders {
    /// `folder/name`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Whether `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// What keeps `path` from being read as a folder: "no such folder" or "not a folder"; `nil` for a folder.
    static func folderProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "no such folder" }
        return (info.st_mode & S_IFMT) == S_IFDIR ? nil : "not a folder"
    }

    /// Whether `path` is a regular file (or a link to one).
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `folder`, sorted, hidden ones left out; at most `limit`.
    static func entries(of folder: String, limit: Int) throws(EvaluationError) -> [String] {
        if let problem = folderProblem(folder) { throw EvaluationError(file: folder, reason: problem) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw EvaluationError(file: folder, reason: "the folder cannot be listed (\(error))")
        }
        let visible = names.filter { !$0.hasPrefix(".") }.sorted()
        guard visible.count <= limit else {
            throw EvaluationError(file: folder, reason: "more than \(limit) entries")
        }
        return visible
    }

    /// The sub-folders of `folder`, sorted by name; an error when there are none.
    static func subfolders(of folder: String, limit: Int) throws(EvaluationError) -> [String] {
        let folders = try entries(of: folder, limit: limit).filter { isFolder(join(folder, $0)) }
        guard !folders.isEmpty else {
            throw EvaluationError(
                file: folder, reason: "no class folders: put each class's photos in a folder named after it")
        }
        return folders
    }
}
