import Foundation

/// The files a command works on: files as given, folders expanded to their images.
enum ImageFiles {
    struct Entry {
        var path: String
        /// Why the entry cannot be read (a missing path, an empty folder), if known up front.
        var problem: String?
    }

    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    static func expand(_ arguments: [String]) -> [Entry] {
        var entries: [Entry] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                entries.append(Entry(path: argument, problem: "no such file"))
                continue
            }
            guard isDirectory.boolValue else {
                entries.append(Entry(path: argument))
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            let images = names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
            if images.isEmpty {
                entries.append(Entry(path: argument, problem: "the folder has no .jpg, .jpeg or .png files"))
            }
            for name in images {
                entries.append(Entry(path: (argument as NSString).appendingPathComponent(name)))
            }
        }
        return entries
    }
}
