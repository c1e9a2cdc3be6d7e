// A fault shim for real `recokit` processes (LD_PRELOAD): the journal directory's own `fsync`, or its own
// `open`, fails the way a disk or a server under load fails it, once a trigger file exists. The trigger
// is how a test picks the moment (the second segment created, say) without counting calls, which differ
// from thread to thread and from run to run.
//
//   RECOKIT_FAULT_DIRECTORY  the directory whose fsync or open fails
//   RECOKIT_FAULT_TRIGGER    the fault holds while this path exists
//   RECOKIT_FAULT            "fsync-eio": the directory's fsync fails with EIO;
//                            "open-emfile": opening the directory fails with EMFILE (out of descriptors);
//                            "flock-enolck": locking a file in the directory fails with ENOLCK (a network
//                            file system without its lock service)
//
// Built by the tests with the toolchain's clang: clang -shared -fPIC -o directory-faults.so directory-faults.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int armed(const char *fault) {
    const char *chosen = getenv("RECOKIT_FAULT"), *trigger = getenv("RECOKIT_FAULT_TRIGGER");
    return chosen && trigger && strcmp(chosen, fault) == 0 && access(trigger, F_OK) == 0;
}

static int isTheDirectory(const char *path) {
    const char *directory = getenv("RECOKIT_FAULT_DIRECTORY");
    if (!directory || !path) return 0;
    size_t length = strlen(directory);
    while (length > 1 && directory[length - 1] == '/') length--;
    return strncmp(path, directory, length) == 0 && (path[length] == 0 || (path[length] == '/' && path[length + 1] == 0));
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    struct stat opened, directory;
    const char *path = getenv("RECOKIT_FAULT_DIRECTORY");
    if (path && armed("fsync-eio") && fstat(fd, &opened) == 0 && stat(path, &directory) == 0
        && opened.st_dev == directory.st_dev && opened.st_ino == directory.st_ino) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

int flock(int fd, int operation) {
    static int (*real)(int, int);
    if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
    const char *directory = getenv("RECOKIT_FAULT_DIRECTORY");
    if (directory && armed("flock-enolck")) {
        // The file's path, through /proc, and whether it lies in the directory.
        char link[64], path[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t length = readlink(link, path, sizeof path - 1);
        size_t prefix = strlen(directory);
        while (prefix > 1 && directory[prefix - 1] == '/') prefix--;
        if (length > 0) {
            path[length] = 0;
            if (strncmp(path, directory, prefix) == 0 && path[prefix] == '/') {
                errno = ENOLCK;
                return -1;
            }
        }
    }
    return real(fd, operation);
}

static int openWith(const char *symbol, const char *path, int flags, mode_t mode) {
    if (isTheDirectory(path) && armed("open-emfile")) {
        errno = EMFILE;
        return -1;
    }
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, symbol);
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
