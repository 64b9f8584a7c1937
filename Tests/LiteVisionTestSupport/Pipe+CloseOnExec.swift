import Foundation

extension Pipe {
    /// Marks both ends of the pipe close-on-exec, before a child is given one of them: a child that another test
    /// starts at the same moment then does not inherit them, and cannot hold the pipe open (a reader would wait for
    /// its end of file, a child reading its standard input for its end, as long as that other child runs). The child
    /// the pipe is meant for still gets its end: `Process` copies it onto the child's standard stream, and the copy is
    /// not close-on-exec.
    public func closeOnExec() {
        _ = fcntl(fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
    }
}
