/* A minimal HTTP/1.1 sink for the delivery benchmark: accepts keep-alive connections on 127.0.0.1,
 * reads each request's headers and Content-Length body, answers 200 {"statusCode":"SUCCESS"}, and
 * stores nothing. One thread per connection. Prints its port on stdout, then serves until killed.
 * Build: gcc -O2 -pthread -o sink sink.c */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

static const char reply[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 24\r\n\r\n{\"statusCode\":\"SUCCESS\"}";

static void *serve(void *argument) {
    int fd = (int)(long)argument;
    size_t capacity = 1 << 20, filled = 0;
    char *buffer = malloc(capacity);
    for (;;) {
        /* Read until the end of the headers. */
        char *end = NULL;
        while (!(end = filled ? memmem(buffer, filled, "\r\n\r\n", 4) : NULL)) {
            if (filled == capacity) goto done;
            ssize_t got = read(fd, buffer + filled, capacity - filled);
            if (got <= 0) goto done;
            filled += (size_t)got;
        }
        size_t header = (size_t)(end - buffer) + 4, body = 0;
        for (char *line = buffer; line < end; line = strstr(line, "\r\n") + 2) {
            if (strncasecmp(line, "content-length:", 15) == 0) body = strtoul(line + 15, NULL, 10);
        }
        /* Skip the body: what is buffered, then exactly what is still to come. */
        size_t total = header + body;
        if (filled >= total) {
            memmove(buffer, buffer + total, filled - total);
            filled -= total;
        } else {
            size_t left = total - filled;
            filled = 0;
            while (left > 0) {
                ssize_t got = read(fd, buffer, left < capacity ? left : capacity);
                if (got <= 0) goto done;
                left -= (size_t)got;
            }
        }
        if (write(fd, reply, sizeof reply - 1) != (ssize_t)(sizeof reply - 1)) goto done;
    }
done:
    free(buffer);
    close(fd);
    return NULL;
}

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0), on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = 0};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 64)
        || getsockname(listener, (struct sockaddr *)&address, &length)) {
        perror("sink");
        return 1;
    }
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) continue;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        pthread_t thread;
        if (pthread_create(&thread, NULL, serve, (void *)(long)fd)) { close(fd); continue; }
        pthread_detach(thread);
    }
}
