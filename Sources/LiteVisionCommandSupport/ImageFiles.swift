import FoundationEssentials
import LiteVisionSystem

/// The files a command works on: files as given, folders expanded to their images.
package enum ImageFiles {
    package struct Entry {
        /// The file's path.
        package var path: String
        /// Why the entry cannot be read (a missing path, an empty folder), if known up front.
        package var problem: String?

        init(path: String, problem: String? = nil) {
            self.path = path
            self.problem = problem
        }
    }

    package static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    package static func expand(_ arguments: [String]) -> [Entry] {
        var entries: [Entry] = []
        for argument in arguments {
            var info = stat()
            guard stat(argument, &info) == 0 else {
                entries.append(Entry(path: argument, problem: "no such file"))
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                entries.append(Entry(path: argument))
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            let images = names.filter { name in
                guard let dot = name.lastIndex(of: ".") else { return false }
                return extensions.contains(name[name.index(after: dot)...].lowercased())
            }.sorted()
            if images.isEmpty {
                entries.append(Entry(path: argument, problem: "the folder has no .jpg, .jpeg or .png files"))
            }
            for name in images {
                entries.append(Entry(path: argument.hasSuffix("/") ? argument + name : argument + "/" + name))
            }
        }
        return entries
    }
}
