extension Platform {
    /// Buffers smaller than this are left alone by ``adviseHugePages(_:)``: 32 MiB, glibc's largest threshold for
    /// serving an allocation with a mapping of its own. A smaller buffer may come from the shared heap, and advice
    /// there would outlive the buffer and apply to whatever is allocated at that place later.
    package static let hugePageAdviceMinimum = 32 << 20

    /// Asks the kernel to back the whole 2 MiB pages inside `buffer` with transparent huge pages, before the
    /// buffer is first written (Linux's `madvise(MADV_HUGEPAGE)`; a no-op elsewhere and for buffers under
    /// ``hugePageAdviceMinimum``).
    ///
    /// A freshly allocated image buffer is mapped on first touch, one 4 KiB page at a time: for the 37 MB of a
    /// decoded 12 MP photo that is 9,000 page faults, about 15 ms here, a quarter of the decode. With huge pages
    /// it is 18 faults. Only pages wholly inside the buffer are advised, and only for buffers that have a mapping of
    /// their own (see ``hugePageAdviceMinimum``), which goes back to the system with the buffer. The advice is only a
    /// hint: where huge pages are disabled (`never`) nothing changes.
    package static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= hugePageAdviceMinimum, let base = buffer.baseAddress else { return }
        let pageSize = 2 << 20
        let start = (Int(bitPattern: base) + pageSize - 1) & ~(pageSize - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(pageSize - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }
}

extension Platform {
    /// Gives the memory that the C library's allocator holds free back to the system (glibc's `malloc_trim(0)`:
    /// every arena, free pages in the middle of its heaps too; a no-op with other C libraries). glibc keeps freed
    /// memory for reuse and on its own returns only what is at the top of a heap, so a burst of buffers freed
    /// between ones still in use stays in the process's resident memory. It walks every arena under its lock:
    /// call it off latency-sensitive threads, and not often.
    package static func returnFreeHeapMemory() {
        _ = mallocTrim?(0)
    }

    /// glibc's `malloc_trim`, looked up at run time: Swift's Glibc module does not declare `<malloc.h>`, and
    /// other C libraries do not have it (nil).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        // A null handle is RTLD_DEFAULT: the symbol as the process's libraries provide it.
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
