#!/usr/bin/env python3
"""Splits `perf script -F comm,ip,sym` samples of the storefront into what each page's CPU went to.

Usage: profile-split.py HZ LABEL=PAGES:FILE... (each FILE the perf script text of one case, PAGES the pages
served while it was recorded). Prints CPU µs per page for each part and case, then the differences:
the crawler's page less the bare page (the blocks themselves) and the person's page less the crawler's
(what tracking costs a page).

Each sample goes to the first part, in the order below, whose pattern matches any frame of its stack
(so a `malloc` under the page's HTML counts as the page's HTML). Stacks perf could not walk through
(libc without frame pointers, the kernel under a bare syscall) fall to the lower parts or `other`.
"""
import collections
import re
import sys

PARTS = [
    # The trackers in the background: the journal's commits (write, fsync), the senders' reads,
    # encoding, and AsyncHTTPClient sending the batches and reading the replies.
    ("tracking: delivery", r"AsyncHTTPClient|TrackerC8sendLoop|TrackerC4send|TrackerC7deliver|TrackerC5start|JournalC4take"
                           r"|JournalC11acknowledge|JournalC6commit|JournalC4read|EventEncoder|EventRecordV|Doorbell"
                           r"|FileJournalStorage|fsync|pread|ext4_file_write_iter"),
    # The request's own tracking: journaling the page's impressions (one record a vendor).
    ("tracking: journal the page", r"TrackerC5track|PageRecordCodec|TrackingC8rendered|PageImpressions"),
    ("tracking: remember blocks shown", r"RenderedWidgets|BoundedLRU"),
    ("blocks: cache lookup", r"keptRendering|RecommendationsClientC04kept|RecommendationSourceV6blocks"),
    ("page: visitor cookies", r"VisitorCookies|VisitorV8remember|VisitorV7request"),
    ("page: HTML", r"ProductPageV4html"),
    ("page: impression policy", r"ImpressionPolicy|KnownBots"),
    # A task waking an event loop (Hummingbird's response writer, timers): eventfd writes and their locks.
    ("wakeups between threads", r"eventfd_write|SelectableEventLoopC10_schedule|dispatch_after"),
    ("HTTP: parsing requests", r"HTTPDecoder|llhttp|ByteToMessageHandler"),
    ("HTTP: writing responses", r"writev|HTTPConnectionStateHandlerC5write|HTTPResponseEncoder|_doOutboundWrites|flushNow"),
    ("HTTP: socket reads", r"readFromSocket|recvfrom|readv|^ksys_read$"),
    ("handler, routing", r"productPage|Hummingbird|HTTPServer"),
    ("scheduling, event loops", r"epoll|blockingWaitForWork|futex|_dispatch|swift_task|swift_job|schedule"),
]


def split(path):
    compiled = [(name, re.compile(pattern, re.M)) for name, pattern in PARTS]
    counts = collections.Counter()
    stack = []

    def settle():
        if not stack:
            return
        # Drop each frame's address: only the symbols are matched.
        text = "\n".join(re.sub(r"^[0-9a-f]+ ", "", frame) for frame in stack[1:])
        for name, pattern in compiled:
            if pattern.search(text):
                counts[name] += 1
                return
        counts["other"] += 1

    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.strip()
            if not line:
                settle()
                stack.clear()
            else:
                stack.append(line)
    settle()
    return counts


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    hz = float(sys.argv[1])
    cases = []
    for argument in sys.argv[2:]:
        label, rest = argument.split("=", 1)
        pages, path = rest.split(":", 1)
        cases.append((label, int(pages), split(path)))
    names = [name for name, _ in PARTS] + ["other"]
    per_page = {label: {name: counts[name] / hz / pages * 1e6 for name in names} for label, pages, counts in cases}
    for label, pages, counts in cases:
        per_page[label]["total"] = sum(counts.values()) / hz / pages * 1e6
    labels = [label for label, _, _ in cases]
    differences = []
    if {"bare", "crawler"} <= set(labels):
        differences.append(("blocks", "crawler", "bare"))
    if {"crawler", "person"} <= set(labels):
        differences.append(("tracking", "person", "crawler"))
    header = f"{'CPU µs per page':34s}" + "".join(f"{label:>10s}" for label in labels) + "".join(f"{d[0]:>10s}" for d in differences)
    print(header)
    for name in names + ["total"]:
        row = f"{name:34s}" + "".join(f"{per_page[label][name]:10.1f}" for label in labels)
        row += "".join(f"{per_page[a][name] - per_page[b][name]:+10.1f}" for _, a, b in differences)
        print(row)
    print("samples: " + ", ".join(f"{label} {sum(counts.values())} over {pages} pages" for label, pages, counts in cases))


if __name__ == "__main__":
    main()
