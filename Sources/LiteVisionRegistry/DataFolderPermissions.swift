import LiteVisionSystem

/// Who may read a data folder: only its owner. Private models are in it (the SQLite database names them, the
/// blobs are their files), so the folder and `blobs/` are created `0700`, and the database and every model file
/// `0600`, whatever the umask.
///
/// A folder made by an older registry (`0755`, files `0644`) is tightened when it is opened: the folder, `blobs/`
/// and the database files get the modes above (the model files need not change: nobody else can reach them
/// through a `0700` folder). What was changed is reported, so that the server can warn that it was exposed.
enum DataFolderPermissions {
    /// The mode of the data folder and of `blobs/`.
    static let folderMode: mode_t = 0o700
    /// The mode of the database and of every model file.
    static let fileMode: mode_t = 0o600

    /// The database files SQLite keeps beside each other in WAL mode.
    static let databaseFiles = ["registry.sqlite", "registry.sqlite-wal", "registry.sqlite-shm", "registry.lock"]

    /// Gives `folder`, its `blobs/` and its database files the modes above where others could read or write them;
    /// returns the paths changed (with their old modes), empty when none was.
    static func tighten(_ folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var changed: [String] = []
        let paths =
            [(folder, folderMode), (base + "blobs", folderMode)] + databaseFiles.map { (base + $0, fileMode) }
        for (path, mode) in paths {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 != 0,
                (status.st_mode & S_IFMT) == S_IFDIR || (status.st_mode & S_IFMT) == S_IFREG
            else { continue }
            if chmod(path, mode) == 0 { changed.append("\(path) (was \(String(status.st_mode & 0o777, radix: 8)))") }
        }
        return changed
    }

    /// Creates the empty database file with the file mode if it is not there yet, so that SQLite (which gives its
    /// WAL and shared-memory files the database's mode) never makes it readable by others.
    static func createDatabase(_ path: String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        if descriptor >= 0 { close(descriptor) }
    }
}
