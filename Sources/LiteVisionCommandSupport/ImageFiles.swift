import FoundationEssentials
import LiteVisionSystem

/// The files a command works on: files as given, folders expanded to their images.
package enum ImageFiles {
    package struct Entry {
        /// The file's path, to open.
        package var path: String
        /// How output and messages name the file (see ``CommandLinePath/name``).
        package var name: String
        /// Why the entry cannot be read (a missing path, an empty folder), if known up front.
        package var problem: String?

        init(path: String, name: String? = nil, problem: String? = nil) {
            self.path = path
            self.name = name ?? path
            self.problem = problem
        }
    }

    package static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    /// The entries of the parsed arguments `arguments` (files named by bytes that are not UTF-8 included, see
    /// ``CommandLinePath``), folders expanded to their images in name order (hidden files, whose names start with a
    /// dot, left out; a file named on the command line is taken whatever its name).
    package static func expand(_ arguments: [String]) -> [Entry] {
        var entries: [Entry] = []
        for named in CommandLinePath.arguments(arguments) {
            let argument = named.path
            if let problem = named.problem {
                entries.append(Entry(path: argument, name: named.name, problem: problem))
                continue
            }
            var info = stat()
            guard stat(argument, &info) == 0 else {
                entries.append(Entry(path: argument, name: named.name, problem: "no such file"))
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                entries.append(Entry(path: argument, name: named.name))
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            // Hidden files are left out: macOS's `._IMG_0001.jpg` companions carry a photo's extension and no photo.
            let images = names.filter { name in
                guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
                return extensions.contains(name[name.index(after: dot)...].lowercased())
            }.sorted()
            if images.isEmpty {
                entries.append(
                    Entry(path: argument, name: named.name, problem: "the folder has no .jpg, .jpeg or .png files"))
            }
            func inFolder(_ folder: String, _ name: String) -> String {
                folder.hasSuffix("/") ? folder + name : folder + "/" + name
            }
            for name in images {
                entries.append(Entry(path: inFolder(argument, name), name: inFolder(named.name, name)))
            }
        }
        return entries
    }
}
