import CPOSIX
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files that SIGINT or SIGTERM must not leave behind (an output written under a
/// private name until it is renamed into place). Their paths are kept as C strings made in
/// advance, so that the signal handler only loads atomics and calls `unlink(2)`, both
/// async-signal-safe. The handler then restores the signal's default action and raises it again:
/// the process ends as the signal would have ended it (a shell reports 130 or 143).
///
/// The handler is installed only for a signal whose action is the default one: an ignored signal
/// stays ignored, and ``Interruption``'s handler (import, localize) removes the files itself
/// before it ends the process. A file whose writer died of SIGKILL is swept by the next write to
/// the same target (``AbandonedFiles``).
package enum TemporaryFiles {
    /// The registered paths: the address of a `strdup` copy, 0 for a free slot. A command writes
    /// one output at a time; more at once are only swept later.
    private static let slots: InlineArray<8, Atomic<Int>> = InlineArray { _ in Atomic(0) }
    private static let installed = Atomic<Bool>(false)

    /// Registers `path` for removal on SIGINT or SIGTERM; returns its slot for ``unregister(_:)``.
    package static func register(_ path: String) -> Int? {
        installSignalHandlers()
        guard let copy = strdup(path) else { return nil }
        let address = Int(bitPattern: copy)
        for slot in 0..<slots.count where slots[slot].compareExchange(expected: 0, desired: address, ordering: .sequentiallyConsistent).exchanged {
            return slot
        }
        free(copy)
        return nil
    }

    /// Forgets the path in `slot` (it was renamed into place, or removed).
    package static func unregister(_ slot: Int) {
        // Whoever takes the address out of the slot owns it: this thread frees it, a handler unlinks it.
        let address = slots[slot].exchange(0, ordering: .sequentiallyConsistent)
        if let copy = UnsafeMutablePointer<CChar>(bitPattern: address) { free(copy) }
    }

    /// Unlinks every registered file. Async-signal-safe: atomics and `unlink(2)` only; the copies
    /// are not freed, since the process is ending.
    package static func removeAll() {
        for slot in 0..<8 {
            let address = slots[slot].exchange(0, ordering: .sequentiallyConsistent)
            if let path = UnsafePointer<CChar>(bitPattern: address) { unlink(path) }
        }
    }

    /// Initializes the slots (a Swift static is made on first use, which a handler must never be).
    package static func prepareForSignals() {
        _ = slots[0].load(ordering: .relaxed)
    }

    private static func installSignalHandlers() {
        guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        prepareForSignals()
        for signal in [SIGINT, SIGTERM] where hubgeo_signal_is_default(signal) {
            hubgeo_signal_handle(signal, { signal in
                TemporaryFiles.removeAll()
                hubgeo_signal_restore_default(signal)
                raise(signal)  // pending while the handler runs; ends the process once it returns
            }, true)
            // Unblocked in this thread, as Interruption does: a parent may have blocked it.
            hubgeo_signals_unblock([signal], 1)
        }
    }
}
