// The only file that includes the glibc headers whose structs hubgeo reads (CPOSIX.h says why).

#include "CPOSIX.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>

_Static_assert(sizeof(sigset_t) <= sizeof(hubgeo_signal_mask), "hubgeo_signal_mask holds a sigset_t");

static void copy_status(const struct stat *from, hubgeo_file_status *to) {
    to->mode = (uint32_t)from->st_mode;
    to->uid = (uint32_t)from->st_uid;
    to->gid = (uint32_t)from->st_gid;
    to->size = (int64_t)from->st_size;
    to->device = (uint64_t)from->st_dev;
    to->inode = (uint64_t)from->st_ino;
    to->modified_seconds = (int64_t)from->st_mtim.tv_sec;
    to->modified_nanoseconds = (int64_t)from->st_mtim.tv_nsec;
}

// The result of stat, lstat or fstat, with what it found copied into `status` when it succeeded.
static int copied(int result, const struct stat *found, hubgeo_file_status *status) {
    if (result == 0) copy_status(found, status);
    return result;
}

int hubgeo_stat(const char *path, hubgeo_file_status *status) {
    struct stat found;
    return copied(stat(path, &found), &found, status);
}

int hubgeo_lstat(const char *path, hubgeo_file_status *status) {
    struct stat found;
    return copied(lstat(path, &found), &found, status);
}

int hubgeo_fstat(int descriptor, hubgeo_file_status *status) {
    struct stat found;
    return copied(fstat(descriptor, &found), &found, status);
}

int hubgeo_statvfs(const char *path, hubgeo_volume_status *volume) {
    struct statvfs found;
    if (statvfs(path, &found) != 0) return -1;
    volume->available_bytes = (uint64_t)found.f_bavail * (uint64_t)found.f_frsize;
    volume->read_only = (found.f_flag & ST_RDONLY) != 0;
    return 0;
}

bool hubgeo_open_file_limit(uint64_t *limit) {
    struct rlimit found;
    if (getrlimit(RLIMIT_NOFILE, &found) != 0 || found.rlim_cur == RLIM_INFINITY) return false;
    *limit = (uint64_t)found.rlim_cur;
    return true;
}

int hubgeo_signal_handle(int signal, void (*handler)(int), bool restart) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = restart ? SA_RESTART : 0;
    return sigaction(signal, &action, NULL);
}

bool hubgeo_signal_is_default(int signal) {
    struct sigaction current;
    return sigaction(signal, NULL, &current) == 0 && current.sa_handler == SIG_DFL;
}

int hubgeo_signal_restore_default(int signal) {
    struct sigaction action;
    memset(&action, 0, sizeof action);  // SIG_DFL, no flags
    sigemptyset(&action.sa_mask);
    return sigaction(signal, &action, NULL);
}

static void fill_set(sigset_t *set, const int *signals, size_t count) {
    sigemptyset(set);
    for (size_t index = 0; index < count; index++) sigaddset(set, signals[index]);
}

int hubgeo_signals_block(const int *signals, size_t count, hubgeo_signal_mask *previous) {
    sigset_t set, old;
    fill_set(&set, signals, count);
    sigemptyset(&old);
    int result = pthread_sigmask(SIG_BLOCK, &set, &old);
    memset(previous, 0, sizeof *previous);
    memcpy(previous, &old, sizeof old);
    return result;
}

int hubgeo_signals_unblock(const int *signals, size_t count) {
    sigset_t set;
    fill_set(&set, signals, count);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int hubgeo_signals_restore(const hubgeo_signal_mask *mask) {
    sigset_t set;
    memcpy(&set, mask, sizeof set);
    return pthread_sigmask(SIG_SETMASK, &set, NULL);
}

hubgeo_time hubgeo_clock_now(int clock) {
    struct timespec now = {0, 0};
    clock_gettime((clockid_t)clock, &now);
    return (hubgeo_time){.seconds = (int64_t)now.tv_sec, .nanoseconds = (int64_t)now.tv_nsec};
}

int hubgeo_sleep(int64_t seconds, int64_t nanoseconds) {
    struct timespec span = {.tv_sec = (time_t)seconds, .tv_nsec = (long)nanoseconds};
    return nanosleep(&span, NULL);
}

hubgeo_calendar hubgeo_utc_calendar(int64_t seconds) {
    struct tm parts;
    memset(&parts, 0, sizeof parts);
    time_t time = (time_t)seconds;
    gmtime_r(&time, &parts);
    return (hubgeo_calendar){
        .year = parts.tm_year + 1900, .month = parts.tm_mon + 1, .day = parts.tm_mday,
        .hour = parts.tm_hour, .minute = parts.tm_min, .second = parts.tm_sec,
    };
}

int hubgeo_poll_readable(int descriptor, int milliseconds) {
    struct pollfd watched = {.fd = descriptor, .events = POLLIN, .revents = 0};
    return poll(&watched, 1, milliseconds);
}

int hubgeo_bind_loopback(int descriptor, int *port) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = 0;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(descriptor, (struct sockaddr *)&address, length) != 0) return -1;
    if (getsockname(descriptor, (struct sockaddr *)&address, &length) != 0) return -1;
    *port = ntohs(address.sin_port);
    return 0;
}

size_t hubgeo_inotify_event(const uint8_t *bytes, size_t count, size_t offset, const char **name) {
    struct inotify_event event;
    if (offset > count || count - offset < sizeof event) return 0;
    memcpy(&event, bytes + offset, sizeof event);  // the buffer's bytes need not be aligned for it
    size_t next = offset + sizeof event + event.len;
    if (next > count) return 0;
    *name = event.len > 0 ? (const char *)(bytes + offset + sizeof event) : "";
    return next;
}

int hubgeo_machine(char *buffer, size_t size) {
    struct utsname names;
    if (size == 0 || uname(&names) != 0) return -1;
    strncpy(buffer, names.machine, size - 1);
    buffer[size - 1] = '\0';
    return 0;
}
