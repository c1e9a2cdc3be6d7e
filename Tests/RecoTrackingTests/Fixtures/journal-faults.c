// A fault shim for real `recokit` processes (LD_PRELOAD): the system calls a journal makes fail the way a
// disk, a network file system or a server under load fails them. Two modes, chosen by RECOKIT_FAULT.
//
// Named faults of the journal directory itself, while a trigger file exists (the trigger is how a test
// picks the moment, the second segment created say, without counting calls):
//   RECOKIT_FAULT            "fsync-eio": the directory's fsync fails with EIO;
//                            "open-emfile": opening the directory fails with EMFILE (out of descriptors);
//                            "flock-enolck": locking a file in the directory fails with ENOLCK (a network
//                            file system without its lock service);
//                            "open-stall": opening the directory or a file in it waits (a disk or a network
//                            file system that does not answer) until the trigger is gone; while it waits,
//                            the file TRIGGER.stalled exists, so a test knows the process is held there
//   RECOKIT_FAULT_TRIGGER    the fault holds while this path exists
//
// "call": one call counted among the calls on the directory's files (open, write, pread, fsync,
// fdatasync, ftruncate, rename, unlink, in any thread, in the order they are made) and on the directory
// itself (its open and fsync, which make a new file's name durable) fails, and the
// RECOKIT_FAULT_REPEAT - 1 after it (default 1 in all):
//   RECOKIT_FAULT_NAME       only calls of this name are counted (all when unset)
//   RECOKIT_FAULT_FILE       only calls on the file of this name in the directory are counted (all when unset)
//   RECOKIT_FAULT_CALL       the number of the counted call that fails first (from 1)
//   RECOKIT_FAULT_ERROR      "EIO", "ENOSPC", "EROFS" (the file system remounted read-only after errors),
//                            "EDQUOT" (the user's quota used up), "EINTR" (interrupted by a signal), or
//                            "SHORT" (a write takes half its bytes; other calls EIO)
//   RECOKIT_FAULT_LOG        a file that gets, at exit, "calls C fired F first NAME FILE" (how many calls
//                            were counted, how many failed, the first that did and the file's name),
//                            then a line "NAME N" for each name: the calls of that name made
//
// Common: RECOKIT_FAULT_DIRECTORY, the journal directory.
// Built by the tests with the toolchain's clang: clang -shared -fPIC -o journal-faults.so journal-faults.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/// The libc function this one stands in front of, as `real_NAME`.
#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static const char *mode(void) { const char *chosen = getenv("RECOKIT_FAULT"); return chosen ? chosen : ""; }

static int armed(const char *fault) {
    const char *trigger = getenv("RECOKIT_FAULT_TRIGGER");
    return strcmp(mode(), fault) == 0 && trigger && access(trigger, F_OK) == 0;
}

/// The directory's path without trailing slashes, and its length.
static size_t directoryPrefix(const char **directory) {
    *directory = getenv("RECOKIT_FAULT_DIRECTORY");
    if (!*directory) return 0;
    size_t length = strlen(*directory);
    while (length > 1 && (*directory)[length - 1] == '/') length--;
    return length;
}

static int isTheDirectory(const char *path) {
    const char *directory;
    size_t length = directoryPrefix(&directory);
    return length && path && strncmp(path, directory, length) == 0
        && (path[length] == 0 || (path[length] == '/' && path[length + 1] == 0));
}

static int isInTheDirectory(const char *path) {
    const char *directory;
    size_t length = directoryPrefix(&directory);
    return length && path && strncmp(path, directory, length) == 0 && path[length] == '/' && path[length + 1] != 0;
}

/// Whether the file open as `fd` lies in the directory (its path through /proc, left in `path`).
static int fdInTheDirectory(int fd, char path[4096]) {
    char link[64];
    path[0] = 0;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, 4095);
    if (length <= 0) return 0;
    path[length] = 0;
    return isInTheDirectory(path);
}

// MARK: "call" mode

static const char *names[] = { "open", "write", "pwrite", "pread", "fsync", "fdatasync", "ftruncate", "rename", "unlink" };
#define NAMES (sizeof names / sizeof names[0])
static unsigned long counted, fired, made[NAMES];
static const char *firstFired;
static char firstPath[4096];

/// For a call on the directory's file `path` in "call" mode: 0 to make it, or the errno it fails with (-1
/// for a short write).
static int counts(const char *name, const char *path) {
    if (strcmp(mode(), "call") != 0) return 0;
    for (size_t index = 0; index < NAMES; index++) {
        if (strcmp(names[index], name) == 0) __atomic_add_fetch(&made[index], 1, __ATOMIC_SEQ_CST);
    }
    const char *only = getenv("RECOKIT_FAULT_NAME"), *file = getenv("RECOKIT_FAULT_FILE");
    if (only && *only && strcmp(only, name) != 0) return 0;
    const char *slash = strrchr(path, '/');
    if (file && *file && strcmp(file, slash ? slash + 1 : path) != 0) return 0;
    unsigned long number = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
    const char *first = getenv("RECOKIT_FAULT_CALL"), *repeat = getenv("RECOKIT_FAULT_REPEAT");
    unsigned long from = first ? strtoul(first, NULL, 10) : 0, times = repeat ? strtoul(repeat, NULL, 10) : 1;
    if (from == 0 || number < from || number >= from + (times ? times : 1)) return 0;
    if (__atomic_add_fetch(&fired, 1, __ATOMIC_SEQ_CST) == 1) {
        firstFired = name;
        snprintf(firstPath, sizeof firstPath, "%s", slash ? slash + 1 : path);
    }
    const char *error = getenv("RECOKIT_FAULT_ERROR");
    if (error && strcmp(error, "ENOSPC") == 0) return ENOSPC;
    if (error && strcmp(error, "EINTR") == 0) return EINTR;
    if (error && strcmp(error, "EROFS") == 0) return EROFS;
    if (error && strcmp(error, "EDQUOT") == 0) return EDQUOT;
    if (error && strcmp(error, "SHORT") == 0) return strcmp(name, "write") == 0 || strcmp(name, "pwrite") == 0 ? -1 : EIO;
    return EIO;
}

__attribute__((destructor)) static void report(void) {
    const char *log = getenv("RECOKIT_FAULT_LOG");
    if (!log || strcmp(mode(), "call") != 0) return;
    FILE *file = fopen(log, "w");
    if (!file) return;
    fprintf(file, "calls %lu fired %lu first %s %s\n", counted, fired, firstFired ? firstFired : "-", firstFired ? firstPath : "-");
    for (size_t index = 0; index < NAMES; index++) fprintf(file, "%s %lu\n", names[index], made[index]);
    fclose(file);
}

// MARK: The calls

int fsync(int fd) {
    REAL(fsync);
    struct stat opened, directory;
    const char *directoryPath = getenv("RECOKIT_FAULT_DIRECTORY");
    char path[4096];
    if (directoryPath && armed("fsync-eio") && fstat(fd, &opened) == 0 && stat(directoryPath, &directory) == 0
        && opened.st_dev == directory.st_dev && opened.st_ino == directory.st_ino) {
        errno = EIO;
        return -1;
    }
    if (fdInTheDirectory(fd, path) || isTheDirectory(path)) {
        int error = counts("fsync", path);
        if (error) { errno = error; return -1; }
    }
    return real_fsync(fd);
}

int fdatasync(int fd) {
    char path[4096];
    REAL(fdatasync);
    if (fdInTheDirectory(fd, path)) {
        int error = counts("fdatasync", path);
        if (error) { errno = error; return -1; }
    }
    return real_fdatasync(fd);
}

int flock(int fd, int operation) {
    char path[4096];
    REAL(flock);
    if (armed("flock-enolck") && fdInTheDirectory(fd, path)) {
        errno = ENOLCK;
        return -1;
    }
    return real_flock(fd, operation);
}

ssize_t write(int fd, const void *bytes, size_t count) {
    char path[4096];
    REAL(write);
    if (fdInTheDirectory(fd, path)) {
        int error = counts("write", path);
        if (error == -1 && count > 1) return real_write(fd, bytes, count / 2);
        if (error > 0) { errno = error; return -1; }
    }
    return real_write(fd, bytes, count);
}

ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    char path[4096];
    REAL(pwrite);
    if (fdInTheDirectory(fd, path)) {
        int error = counts("pwrite", path);
        if (error == -1 && count > 1) return real_pwrite(fd, bytes, count / 2, offset);
        if (error > 0) { errno = error; return -1; }
    }
    return real_pwrite(fd, bytes, count, offset);
}

ssize_t pwrite64(int fd, const void *bytes, size_t count, off_t offset) { return pwrite(fd, bytes, count, offset); }

ssize_t pread(int fd, void *bytes, size_t count, off_t offset) {
    char path[4096];
    REAL(pread);
    if (fdInTheDirectory(fd, path)) {
        int error = counts("pread", path);
        if (error) { errno = error > 0 ? error : EIO; return -1; }
    }
    return real_pread(fd, bytes, count, offset);
}

ssize_t pread64(int fd, void *bytes, size_t count, off_t offset) { return pread(fd, bytes, count, offset); }

int ftruncate(int fd, off_t size) {
    char path[4096];
    REAL(ftruncate);
    if (fdInTheDirectory(fd, path)) {
        int error = counts("ftruncate", path);
        if (error) { errno = error > 0 ? error : EIO; return -1; }
    }
    return real_ftruncate(fd, size);
}

int ftruncate64(int fd, off_t size) { return ftruncate(fd, size); }

int rename(const char *from, const char *to) {
    REAL(rename);
    if (isInTheDirectory(from) || isInTheDirectory(to)) {
        int error = counts("rename", isInTheDirectory(to) ? to : from);
        if (error) { errno = error > 0 ? error : EIO; return -1; }
    }
    return real_rename(from, to);
}

int unlink(const char *path) {
    REAL(unlink);
    if (isInTheDirectory(path)) {
        int error = counts("unlink", path);
        if (error) { errno = error > 0 ? error : EIO; return -1; }
    }
    return real_unlink(path);
}

static int openWith(const char *symbol, const char *path, int flags, mode_t mode) {
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, symbol);
    if ((isInTheDirectory(path) || isTheDirectory(path)) && armed("open-stall")) {
        const char *trigger = getenv("RECOKIT_FAULT_TRIGGER");
        char stalled[4096];
        snprintf(stalled, sizeof stalled, "%s.stalled", trigger);
        int marker = real(stalled, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (marker >= 0) close(marker);
        while (access(trigger, F_OK) == 0) usleep(10000);
    }
    if (isTheDirectory(path) && armed("open-emfile")) {
        errno = EMFILE;
        return -1;
    }
    if (isInTheDirectory(path) || isTheDirectory(path)) {
        int error = counts("open", path);
        if (error) { errno = error > 0 ? error : EIO; return -1; }
    }
    return real(path, flags, mode);
}

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    return openWith("open", path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    return openWith("open64", path, flags, mode);
}
