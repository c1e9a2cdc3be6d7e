import Foundation
import RecoKit

/// The widgets this server rendered for each visitor, so a widget-view report is accepted only for a
/// widget the visitor was really shown. Bounded: at most ``maxVisitors`` visitors (the longest unseen
/// is forgotten first) and ``maxWidgetsPerVisitor`` widgets each (the oldest is forgotten first).
public final class RenderedWidgets: @unchecked Sendable {
    /// A widget shown to a visitor.
    public struct Shown: Sendable, Hashable {
        /// Who sent it.
        public var vendor: Vendor
        /// Its instance id.
        public var instanceId: String
        /// Its interaction id.
        public var interactionId: String
    }

    /// How many visitors are remembered.
    public let maxVisitors: Int
    /// How many widgets are remembered per visitor.
    public let maxWidgetsPerVisitor: Int

    private let lock = NSLock()
    private var byVisitor: [String: (widgets: [Shown], stamp: UInt64)] = [:]
    private var order: [(visitor: String, stamp: UInt64)] = []
    private var head = 0
    private var clock: UInt64 = 0

    /// An empty memory with these bounds.
    public init(maxVisitors: Int = 10_000, maxWidgetsPerVisitor: Int = 32) {
        self.maxVisitors = max(1, maxVisitors)
        self.maxWidgetsPerVisitor = max(1, maxWidgetsPerVisitor)
    }

    /// Remembers that `widgets` were rendered for `visitor`.
    public func record(_ widgets: [Shown], for visitor: String) {
        guard !widgets.isEmpty else { return }
        lock.withLock {
            clock += 1
            var entry = byVisitor[visitor] ?? (widgets: [], stamp: 0)
            for widget in widgets where !entry.widgets.contains(widget) { entry.widgets.append(widget) }
            if entry.widgets.count > maxWidgetsPerVisitor { entry.widgets.removeFirst(entry.widgets.count - maxWidgetsPerVisitor) }
            entry.stamp = clock
            byVisitor[visitor] = entry
            order.append((visitor, clock))
            evict()
        }
    }

    /// Takes the widget out of the visitor's memory if it is there (a view is counted once per rendering).
    /// - Returns: the widget, or nil when this server did not render it for this visitor.
    public func take(instanceId: String, interactionId: String, for visitor: String) -> Shown? {
        lock.withLock {
            guard var entry = byVisitor[visitor],
                  let index = entry.widgets.firstIndex(where: { $0.instanceId == instanceId && $0.interactionId == interactionId })
            else { return nil }
            let shown = entry.widgets.remove(at: index)
            byVisitor[visitor] = entry
            return shown
        }
    }

    /// How many visitors are remembered now.
    public var visitorCount: Int { lock.withLock { byVisitor.count } }

    private func evict() {
        while byVisitor.count > maxVisitors, head < order.count {
            let oldest = order[head]
            head += 1
            if byVisitor[oldest.visitor]?.stamp == oldest.stamp { byVisitor[oldest.visitor] = nil }
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        // Entries whose stamp moved on are stale; keep `order` from growing without bound.
        if order.count - head > maxVisitors * 4 {
            order = order[head...].filter { byVisitor[$0.visitor]?.stamp == $0.stamp }
            head = 0
        }
    }
}
