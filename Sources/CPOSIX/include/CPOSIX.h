#ifndef HUBGEO_CPOSIX_H
#define HUBGEO_CPOSIX_H

// The POSIX calls whose structs hubgeo's Swift reads, behind small structs of this module's own.
//
// Why a module of its own: glibc's headers are not modular, so every clang module that includes one
// (Glibc, libdispatch's CDispatch, NIO's CNIOLinux, CCurl, whose curl.h includes <time.h> and
// <sys/socket.h>) holds a copy of its structs, and clang gives a struct's members and its zero
// initializer (`stat.st_mode`, `sigaction.sa_handler`, `timespec.tv_sec`, `stat()`) to whichever of
// those modules read the header first in a compilation. With MemberImportVisibility (SE-0444) a Swift
// file may use a member only of a module it imports, so the same file compiled in one build and failed in
// the next (measured: "property 'sa_handler' is not available due to missing import of defining module
// 'CDispatch'" in the release build of TemporaryFiles.swift, which the debug build had compiled).
// Importing more modules is no fix: the owner is not stable, and a file would name modules it does not use.
//
// So the structs Swift reads are declared here, with fixed-width types, and only this module defines them;
// the glibc headers are included by CPOSIX.c alone. Every call returns what the system call returned and
// leaves errno as it set it. hubgeo builds on Linux with glibc only (Package.swift); a difference between
// platforms goes in CPOSIX.c, nowhere else.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// MARK: - Files

/// What stat(2) says of a file, in the fields hubgeo reads.
typedef struct hubgeo_file_status {
    /// `st_mode`: the kind (the `S_IFMT` bits: `S_IFREG`, `S_IFDIR`, ...) and the permission bits.
    uint32_t mode;
    uint32_t uid;
    uint32_t gid;
    /// Bytes.
    int64_t size;
    uint64_t device;
    uint64_t inode;
    /// The last modification, `st_mtim`.
    int64_t modified_seconds;
    int64_t modified_nanoseconds;
} hubgeo_file_status;

/// stat(2) of `path` (links followed) into `status`: 0, or -1 with errno.
int hubgeo_stat(const char *path, hubgeo_file_status *status);
/// lstat(2): a symbolic link itself.
int hubgeo_lstat(const char *path, hubgeo_file_status *status);
/// fstat(2) of an open descriptor.
int hubgeo_fstat(int descriptor, hubgeo_file_status *status);

/// What statvfs(3) says of the file system holding a path.
typedef struct hubgeo_volume_status {
    /// Free bytes this (unprivileged) user may use: `f_bavail * f_frsize`.
    uint64_t available_bytes;
    /// Mounted read-only (`ST_RDONLY`).
    bool read_only;
} hubgeo_volume_status;

/// statvfs(3) of the file system holding `path`: 0, or -1 with errno.
int hubgeo_statvfs(const char *path, hubgeo_volume_status *volume);

/// The soft limit of open files (`RLIMIT_NOFILE`, `ulimit -n`) in `*limit`: false when it cannot be read
/// or is unlimited.
bool hubgeo_open_file_limit(uint64_t *limit);

// MARK: - Signals

/// Makes `handler` the action of `signal`, with an empty mask, and with `SA_RESTART` when `restart`
/// (without it, a wait in poll(2) or nanosleep(2) returns at the signal). sigaction(2)'s result.
int hubgeo_signal_handle(int signal, void (*handler)(int), bool restart);

/// Whether the action of `signal` is the default one (`SIG_DFL`); false when it cannot be read.
bool hubgeo_signal_is_default(int signal);

/// Makes the default action that of `signal` again. Async-signal-safe (sigaction(2) only).
int hubgeo_signal_restore_default(int signal);

/// A thread's signal mask, as hubgeo_signals_block saved it (room for glibc's `sigset_t`, 128 bytes).
typedef struct hubgeo_signal_mask {
    uint64_t words[16];
} hubgeo_signal_mask;

/// Blocks the `count` signals of `signals` in the calling thread (pthread_sigmask(3)), keeping the mask
/// they replace in `previous`.
int hubgeo_signals_block(const int *signals, size_t count, hubgeo_signal_mask *previous);
/// Unblocks the `count` signals of `signals` in the calling thread.
int hubgeo_signals_unblock(const int *signals, size_t count);
/// Makes `mask` (from hubgeo_signals_block) the calling thread's mask again.
int hubgeo_signals_restore(const hubgeo_signal_mask *mask);

// MARK: - Time

/// A time read from a clock: seconds and nanoseconds (a `timespec`).
typedef struct hubgeo_time {
    int64_t seconds;
    int64_t nanoseconds;
} hubgeo_time;

/// The time on `clock` (`CLOCK_MONOTONIC`, `CLOCK_REALTIME`, `CLOCK_THREAD_CPUTIME_ID`, ...) by
/// clock_gettime(2); zero when it cannot be read.
hubgeo_time hubgeo_clock_now(int clock);

/// nanosleep(2) for `seconds` and `nanoseconds` (below 1e9): 0, or -1 with errno (`EINTR`: a signal).
int hubgeo_sleep(int64_t seconds, int64_t nanoseconds);

/// The parts of a time in UTC (gmtime_r(3)), as people write them.
typedef struct hubgeo_calendar {
    /// The year (2026).
    int32_t year;
    /// 1 to 12.
    int32_t month;
    /// 1 to 31.
    int32_t day;
    int32_t hour;
    int32_t minute;
    /// 0 to 60 (a leap second).
    int32_t second;
} hubgeo_calendar;

/// `seconds` since the epoch in UTC; those of the zero `struct tm` (1900-01-00 00:00:00) when gmtime_r fails.
hubgeo_calendar hubgeo_utc_calendar(int64_t seconds);

// MARK: - Descriptors and the system

/// Waits up to `milliseconds` (-1: no limit) for `descriptor` to be readable (poll(2) with `POLLIN`):
/// 1 when it is (or at its end, or an error on it), 0 at the time limit, -1 with errno.
int hubgeo_poll_readable(int descriptor, int milliseconds);

/// Binds the socket `descriptor` (`AF_INET`, made by the caller) to 127.0.0.1 on a port the system
/// chooses, which it writes to `*port`: 0, or -1 with errno.
int hubgeo_bind_loopback(int descriptor, int *port);

/// The inotify(7) event that starts at `offset` of the `count` bytes read from an inotify descriptor:
/// its name in `*name` (`""` when it has none) and the offset of the next event; 0 when no whole event
/// starts there.
size_t hubgeo_inotify_event(const uint8_t *bytes, size_t count, size_t offset, const char **name);

/// The machine's hardware name as uname(2) gives it (`x86_64`, `aarch64`) into `buffer` of `size` bytes,
/// NUL-terminated: 0, or -1 with errno.
int hubgeo_machine(char *buffer, size_t size);

#endif
